"""The command line of a generated file: write it, or check that the committed copy is current.

The RTL's field header (models/hdl_isa.py) and the test-only Verilog's code header
(tb/rules/hdl_codes.py) are generated from Python tables and committed; both commands behave
alike, so a stale copy reads the same way whichever one it is.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generated_file_main(argv: list[str] | None, prog: str, description: str, path: Path, text: str,
                        changed: str) -> int:
    """Write ``text`` to ``path``; with ``--check`` write nothing and exit 1, one line naming
    the file and what ``changed``, when the committed copy differs or cannot be read."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the checked-in file differs from the generated one")
    args = parser.parse_args(argv)
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if args.check:
        try:
            current = path.read_text()
        except OSError as exc:
            print(f"{rel}: cannot read ({exc.strerror}); run `{prog}`", file=sys.stderr)
            return 1
        if current != text:
            print(f"{rel} is stale ({changed}); run `{prog}`", file=sys.stderr)
            return 1
        return 0
    path.write_text(text)
    print(f"wrote {rel}")
    return 0
