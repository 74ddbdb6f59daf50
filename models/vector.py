"""Test vectors on disk (spec section 6): a manifest.json plus raw byte images.

Loading validates everything a simulator would otherwise trip over later (types,
missing files, overlapping init images, addresses beyond 4 GiB, an instruction stream
that no init image holds) and names the manifest and the entry in every error.

Init images and the bytes between them: DRAM that no init image covers reads as 0 (spec
section 6), so a program may read it, also with a LOAD that starts inside an image and runs
past its end (a compiler may leave trailing zeros out of an image; the model's command line
notes such LOADs, ``models.checker.reads_past_images``, since a truncated file reads the
same). The instruction stream is the exception: [insn_addr, insn_addr + 16 * insn_count)
must lie wholly in init images (:func:`check_insn_range`), because zero words there are
legal instructions (LOAD UOP) that no program means, so an insn_count too large for its
image is an error.
"""
from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from models.config import ConfigError, VtaConfig, read_json
from models.dram import ADDR_LIMIT, Dram
from models.spec.ranges import merge_spans

FORMAT = "vta-vector-1"
BASE_NAMES = ("uop", "inp", "wgt", "acc", "out")
KEYS = {"format", "description", "config", "insn_addr", "insn_count", "bases", "init", "expect"}


class VectorError(ValueError):
    """A malformed vector; the message names the manifest and the entry."""


@dataclass
class Image:
    """Bytes that sit at a DRAM byte address (an init or an expect entry)."""

    addr: int
    data: bytes
    file: str = ""


@dataclass
class Vector:
    """One test vector in memory."""

    config: VtaConfig
    insn_addr: int
    insn_count: int
    init: list[Image]
    expect: list[Image] | None = None
    bases: dict[str, int] = field(default_factory=lambda: {b: 0 for b in BASE_NAMES})
    description: str = ""
    path: Path | None = None

    def dram(self) -> Dram:
        """A DRAM image holding every init entry, the rest zero."""
        return Dram.from_images((i.addr, i.data) for i in self.init)

    @property
    def name(self) -> str:
        return self.path.name if self.path else "<vector>"

    @property
    def manifest(self) -> str:
        """The manifest's path for error messages ('<vector>' for one built in memory)."""
        return str(self.path / "manifest.json") if self.path else "<vector>"

    def coverage(self) -> "Coverage":
        """Which DRAM bytes the init images hold."""
        return Coverage(self.init)


class Coverage:
    """The DRAM bytes held by init images: maximal runs of adjacent images."""

    def __init__(self, images: list[Image]) -> None:
        self.images = images
        spans = sorted((img.addr, img.addr + len(img.data), n) for n, img in enumerate(images)
                       if img.data)
        self.spans = spans  # (lo, hi, image index) of each non-empty image, by address
        self.starts = [lo for lo, _, _ in spans]
        runs = merge_spans((lo, hi) for lo, hi, _ in spans)
        self.lows = [lo for lo, _ in runs]
        self.highs = [hi for _, hi in runs]

    def image_at(self, addr: int) -> int | None:
        """Index of the init image holding byte addr, or None."""
        k = bisect_right(self.starts, addr) - 1
        return self.spans[k][2] if k >= 0 and addr < self.spans[k][1] else None

    def first_gap(self, lo: int, hi: int) -> tuple[int, int] | None:
        """The first run [a, b) of bytes in [lo, hi) that no init image holds, or None."""
        at = lo
        while at < hi:
            k = bisect_right(self.lows, at) - 1
            if k >= 0 and at < self.highs[k]:
                at = self.highs[k]  # covered up to the end of this run
                continue
            nxt = self.lows[k + 1] if k + 1 < len(self.lows) else hi
            return at, min(hi, nxt)
        return None

    def describe(self, n: int) -> str:
        img = self.images[n]
        return f"init[{n}] ('{img.file or '<memory>'}', [{img.addr:#x}, {img.addr + len(img.data):#x}))"


def _int(value: Any, where: str, lo: int = 0, hi: int = ADDR_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise VectorError(f"{where}: must be an integer, got {value!r}")
    if not lo <= value < hi:
        raise VectorError(f"{where}: {value:#x} is outside [{lo:#x}, {hi:#x})")
    return value


def _images(raw: Any, root: Path, where: str) -> list[Image]:
    if not isinstance(raw, list):
        raise VectorError(f"{where}: must be a list of {{\"addr\", \"file\"}} objects")
    out = []
    for n, entry in enumerate(raw):
        at = f"{where}[{n}]"
        if not isinstance(entry, dict) or set(entry) != {"addr", "file"}:
            raise VectorError(f"{at}: must be an object with exactly the keys 'addr' and 'file'")
        addr = _int(entry["addr"], f"{at}.addr")
        name = entry["file"]
        if not isinstance(name, str) or not name:
            raise VectorError(f"{at}.file: must be a non-empty relative path string")
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise VectorError(f"{at}.file: '{name}' must be a path inside the vector directory "
                              f"(relative, without '..')")
        path = root / name
        if path.exists() and not path.is_file() and not path.is_dir():
            raise VectorError(f"{at}: '{name}' is not a regular file (a device, FIFO or socket)")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise VectorError(f"{at}: cannot read file '{entry['file']}': {exc.strerror}") from None
        if addr + len(data) > ADDR_LIMIT:
            raise VectorError(f"{at}: '{entry['file']}' ({len(data)} bytes at {addr:#x}) "
                              f"runs beyond 4 GiB")
        out.append(Image(addr, data, entry["file"]))
    return out


def _check_overlap(images: list[Image], manifest: Path, what: str = "init") -> None:
    spans = sorted((img.addr, img.addr + len(img.data), n) for n, img in enumerate(images))
    for (a0, a1, n0), (b0, b1, n1) in zip(spans, spans[1:], strict=False):
        if b0 < a1:
            raise VectorError(f"{manifest}: {what}[{n0}] ('{images[n0].file}', [{a0:#x}, {a1:#x})) "
                              f"overlaps {what}[{n1}] ('{images[n1].file}', [{b0:#x}, {b1:#x}))")


def _not_a_directory(path: Path) -> str:
    """Why a path that should be a directory is not one."""
    if path.exists():
        return "not a directory"
    if path.is_symlink():
        return "a dangling or looping symbolic link"
    return "no such directory"


def load_vector(directory: str | Path) -> Vector:
    """Read and validate DIR/manifest.json and the files it names."""
    root = Path(directory)
    manifest = root / "manifest.json"
    if not root.is_dir():
        raise VectorError(f"{root}: {_not_a_directory(root)}; a vector is a directory holding "
                          f"manifest.json")
    raw = read_json(manifest, VectorError, f"{manifest}: no manifest.json in vector directory '{root}'")
    if not isinstance(raw, dict):
        raise VectorError(f"{manifest}: the manifest must be a JSON object")
    unknown = set(raw) - KEYS
    if unknown:
        raise VectorError(f"{manifest}: unknown key(s) {', '.join(sorted(unknown))}")
    for key in ("format", "insn_addr", "insn_count", "init"):
        if key not in raw:
            raise VectorError(f"{manifest}: missing required key '{key}'")
    if raw["format"] != FORMAT:
        raise VectorError(f"{manifest}: format is {raw['format']!r}, expected {FORMAT!r}")
    try:
        cfg = VtaConfig.from_dict(raw.get("config", {}), f"{manifest}: config")
    except ConfigError as exc:
        raise VectorError(str(exc)) from None
    bases_raw = raw.get("bases", {})
    if not isinstance(bases_raw, dict) or set(bases_raw) - set(BASE_NAMES):
        raise VectorError(f"{manifest}: bases must be an object with keys among {', '.join(BASE_NAMES)}")
    bases = {b: _int(bases_raw.get(b, 0), f"{manifest}: bases.{b}") for b in BASE_NAMES}
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise VectorError(f"{manifest}: description must be a string")
    init = _images(raw["init"], root, f"{manifest}: init")
    _check_overlap(init, manifest)
    expect = _images(raw["expect"], root, f"{manifest}: expect") if "expect" in raw else None
    if expect:
        _check_overlap(expect, manifest, "expect")
    insn_addr = _int(raw["insn_addr"], f"{manifest}: insn_addr")
    insn_count = _int(raw["insn_count"], f"{manifest}: insn_count", 0, 1 << 32)
    if insn_addr + 16 * insn_count > ADDR_LIMIT:
        raise VectorError(f"{manifest}: {insn_count} instructions at {insn_addr:#x} run beyond 4 GiB")
    vector = Vector(cfg, insn_addr, insn_count, init, expect, bases, description, root)
    check_insn_range(vector)
    return vector


def check_insn_range(vector: Vector) -> None:
    """The instruction stream must lie wholly in init images (a short or missing image would
    silently fetch zero words, which decode as LOAD UOP)."""
    if vector.insn_count == 0:
        return
    lo = vector.insn_addr
    hi = lo + 16 * vector.insn_count
    cov = vector.coverage()
    gap = cov.first_gap(lo, hi)
    if gap is None:
        return
    g0, g1 = gap
    first, last = (g0 - lo) // 16, (g1 - 1 - lo) // 16
    which = f"instruction {first}" if first == last else f"instructions {first}..{last}"
    head = (f"{vector.manifest}: insn_count {vector.insn_count}: the instructions are "
            f"[{lo:#x}, {hi:#x}) (insn_addr {lo:#x} + 16 * {vector.insn_count})")
    before = cov.image_at(g0 - 1) if g0 > lo else None
    if before is not None:
        raise VectorError(f"{head} but they run beyond the end of {cov.describe(before)}: "
                          f"bytes [{g0:#x}, {g1:#x}) ({which}) are in no init image "
                          f"(init images hold only {first} whole instruction(s) from insn_addr)")
    if (g0, g1) == (lo, hi):
        raise VectorError(f"{head} but no init image holds them")
    raise VectorError(f"{head} but bytes [{g0:#x}, {g1:#x}) ({which}) are in no init image")


def save_vector(vector: Vector, directory: str | Path) -> Path:
    """Write a vector as manifest.json plus one .bin file per image; returns the directory."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)

    def dump(images: list[Image], prefix: str) -> list[dict[str, Any]]:
        entries = []
        for n, img in enumerate(images):
            name = img.file or f"{prefix}{n}.bin"
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(img.data)
            entries.append({"addr": img.addr, "file": name})
        return entries

    manifest: dict[str, Any] = {"format": FORMAT, "description": vector.description,
                                "config": vector.config.overrides(),
                                "insn_addr": vector.insn_addr, "insn_count": vector.insn_count}
    if any(vector.bases.values()):
        manifest["bases"] = dict(vector.bases)
    manifest["init"] = dump(vector.init, "init")
    if vector.expect is not None:
        manifest["expect"] = dump(vector.expect, "expect")
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    vector.path = root
    return root


def find_vectors(paths: Iterable[str | Path]) -> list[Path]:
    """Vector directories named by paths: a directory holding manifest.json, or every such
    directory below one; a path that is neither, or holds none, is an error."""
    out: list[Path] = []
    for path in map(Path, paths):
        if path.exists() and not path.is_dir():
            raise VectorError(f"{path}: not a directory; expected a vector (a directory "
                              f"holding manifest.json) or a directory of vectors")
        if (path / "manifest.json").exists():
            out.append(path)
            continue
        found = sorted(m.parent for m in path.rglob("manifest.json")) if path.is_dir() else []
        if not found:
            raise VectorError(f"{path}: neither a vector (no manifest.json) nor a directory of vectors")
        out.extend(found)
    return out
