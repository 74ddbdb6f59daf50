"""Generate the directed test vectors of the VTA verification suite and their README.

Run from the repository root as ``.venv/bin/python vectors/generate.py [--out DIR]``
(``make vectors``). It deletes every vector directory under DIR (default: vectors/
itself; a vector directory is one holding a manifest.json), writes every vector again
and rewrites DIR/README.md; random data comes from generators seeded by the vector
name, so two runs give byte-identical files.

The vectors themselves live in vectors/families/, one module per kind of vector, each
exporting VECTORS, its (name, builder) pairs. Each builder keeps three parts apart on
purpose:

1. data: numpy arrays placed into DRAM (:mod:`vectors.data`);
2. program: instructions built with :mod:`vectors.programs`;
3. reference: the expected DRAM bytes, computed from the same arrays with plain numpy
   (:mod:`vectors.reference`) and the semantics of ../shared/VTA_SPEC.md section 3 --
   never with models/executor.py, so that the executor and these vectors check each
   other.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))  # run as a script from anywhere: models/ and vectors/

from models.vector import Vector, save_vector  # noqa: E402
from vectors.families import alu, bases, configs, gemm, layers, load_store, tokens, zero_dram  # noqa: E402
from vectors.programs import Builder  # noqa: E402
from vectors.readme import readme  # noqa: E402

#: Every vector, in the order of the README table.
VECTORS: list[tuple[str, Builder]] = [
    *load_store.VECTORS, *gemm.VECTORS, *alu.VECTORS, *tokens.VECTORS, *layers.VECTORS,
    *bases.VECTORS, *configs.VECTORS, *zero_dram.VECTORS,
]


def generate(out: Path) -> list[tuple[str, Vector]]:
    """Delete every vector directory under ``out``, write all vectors and the README.

    Returns the vectors written, by name; raises OSError when ``out`` cannot be written.
    """
    names = [name for name, _ in VECTORS]
    assert len(set(names)) == len(names), "duplicate vector names"
    out.mkdir(parents=True, exist_ok=True)
    for old in sorted(out.iterdir()):
        if old.is_dir() and (old / "manifest.json").exists():
            shutil.rmtree(old)
    built = []
    for name, build in VECTORS:
        vec = build(name)
        save_vector(vec, out / name)
        built.append((name, vec))
    (out / "README.md").write_text(readme(built))
    return built


def main(argv: list[str] | None = None) -> int:
    """Delete every vector directory under the output directory, write all vectors and the README."""
    parser = argparse.ArgumentParser(prog="vectors/generate.py", description=main.__doc__)
    parser.add_argument("--out", type=Path, default=ROOT,
                        help="output directory (default: vectors/ itself, as `make vectors`)")
    out: Path = parser.parse_args(argv).out
    try:
        built = generate(out)
    except OSError as exc:
        print(f"error: {exc.filename or out}: cannot write: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(built)} vectors to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
