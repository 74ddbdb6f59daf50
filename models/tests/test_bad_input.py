"""Bad input to the model's command line (``python -m models ...``): one case per thing a user
could get wrong, each with the one-line error (exit 2) or the finding (exit 1) it must give.

The cases are grouped in classes (``Case.cls``), the rows of the README's robustness table.
Files are built in the case's temporary directory by ``setup``, mostly by copying a
committed vector from vectors/ and breaking one thing in it.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from models.tests.badinput import ROOT, Case, check

Setup = Callable[[Path], None]
PY = "python"
M = (PY, "-m", "models")

READ_PAST = "vector: LOAD past an init image (legal, reads 0)"
INSN_COUNT = "vector: insn_count beyond the instructions"
MANIFEST = "vector: malformed manifest"
ILL_FORMED = "run: ill-formed program"
NUMBER = "argument: bad number"
PATH = "argument: bad path"
USAGE = "argument: unknown or missing"
DISASM_CFG = "disasm: configuration mismatch"
BINARY = "disasm: bad binary"
CONFIG = "config: invalid"
ASSEMBLY = "assembly: invalid"
OUTPUT = "output: closed pipe or full disk"


# --- setup helpers ------------------------------------------------------------------------
def steps(*fns: Setup) -> Setup:
    def run(tmp: Path) -> None:
        for fn in fns:
            fn(tmp)
    return run


def vector(name: str = "alu_add", as_: str = "v") -> Setup:
    """Copy a committed vector to {tmp}/v."""
    def run(tmp: Path) -> None:
        shutil.copytree(ROOT / "vectors" / name, tmp / as_)
    return run


def manifest(change: Callable[[dict[str, Any]], None], at: str = "v") -> Setup:
    def run(tmp: Path) -> None:
        path = tmp / at / "manifest.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return run


def raw_manifest(text: str | bytes, at: str = "v") -> Setup:
    def run(tmp: Path) -> None:
        path = tmp / at / "manifest.json"
        path.unlink()
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return run


def truncate(rel: str, size: int) -> Setup:
    """Cut {tmp}/rel to size bytes (a negative size removes that many from the end)."""
    def run(tmp: Path) -> None:
        path = tmp / rel
        data = path.read_bytes()
        path.write_bytes(data[:size])
    return run


def zero(rel: str, lo: int, hi: int) -> Setup:
    """Set bytes [lo, hi) of {tmp}/rel to 0 (an expect image, where the program reads zeros)."""
    def run(tmp: Path) -> None:
        path = tmp / rel
        data = bytearray(path.read_bytes())
        data[lo:hi] = bytes(hi - lo)
        path.write_bytes(bytes(data))
    return run


def low_bytes(src: str, dst: str, lanes: int) -> Setup:
    """Write {tmp}/dst as the byte a LOAD ACC + STORE of ``lanes`` 4-byte lanes from {tmp}/src
    leaves: the low byte of each lane (STORE truncation), 0 where src has ended (bytes no
    init image holds read as 0, spec section 6)."""
    def run(tmp: Path) -> None:
        data = (tmp / src).read_bytes()
        (tmp / dst).write_bytes(bytes(data[4 * k] if 4 * k < len(data) else 0 for k in range(lanes)))
    return run


def write(rel: str, data: str | bytes) -> Setup:
    def run(tmp: Path) -> None:
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return run


def mkdir(rel: str) -> Setup:
    return lambda tmp: (tmp / rel).mkdir(parents=True)


def fifo(rel: str) -> Setup:
    def run(tmp: Path) -> None:
        path = tmp / rel
        if path.exists():
            path.unlink()
        os.mkfifo(path)
    return run


def symlink(rel: str, target: str) -> Setup:
    def run(tmp: Path) -> None:
        path = tmp / rel
        if path.exists() or path.is_symlink():
            path.unlink()
        os.symlink(target, path)
    return run


def program(text: list[str], data: dict[int, bytes] | None = None, bases: dict[str, int] | None = None,
            cfg: str = "small", at: str = "v") -> Setup:
    """A vector of hand-written assembly at 0x1000 (no expect) in {tmp}/at."""
    def run(tmp: Path) -> None:
        from models.asm import assemble
        from models.spec.configs import load_config
        from models.vector import Image, Vector, save_vector
        config = load_config(cfg)
        insns = assemble(config, text)
        init = [Image(0x1000, insns, "insn.bin")]
        init += [Image(addr, blob, f"data{n}.bin") for n, (addr, blob) in enumerate((data or {}).items())]
        full = {"uop": 0, "inp": 0, "wgt": 0, "acc": 0, "out": 0, **(bases or {})}
        save_vector(Vector(config, 0x1000, len(insns) // 16, init, None, full, "bad input"), tmp / at)
    return run


TILE = "sram_base=0 dram_base=0 y_size=1 x_size=1 x_stride=1"
#: LOAD ACC then STORE of the same entry with no token between them, and FINISH unordered.
RACE = program([f"LOAD ACC {TILE}", f"STORE OUT {TILE}", "FINISH"], {0x2000: bytes(range(16))},
               {"acc": 0x2000, "out": 0x3000})
#: STORE pops a C2S token nobody pushes; FINISH waits for S2C.
DEADLOCK = program([f"LOAD ACC {TILE}", f"STORE OUT pop_prev push_prev {TILE}", "FINISH pop_next"],
                   {0x2000: bytes(range(16))}, {"acc": 0x2000, "out": 0x3000})


def _setk(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda m: m.__setitem__(key, value)


def _init(name: str, /, **entry: Any) -> Callable[[dict[str, Any]], None]:
    """Change the init entry of one file."""
    def change(m: dict[str, Any]) -> None:
        next(e for e in m["init"] if e["file"] == name).update(entry)
    return change


V = "{tmp}/v"
VEC = "vectors/alu_add"  # a committed vector, used as it is
ASM = (*M, "asm", "{tmp}/f.s", "-o", "{tmp}/o.bin")
ASM_JSON = (*M, "asm", "--json", "{tmp}/f.json", "-o", "{tmp}/o.bin")
ALU_ADD = vector("alu_add")  # insns.bin = init[3] at 0x2000 (17 insns), uops.bin = init[2]
LOAD_ACC_STORE = vector("load_acc_store")
SMALL = json.loads((ROOT / "models" / "configs" / "small.json").read_text())
DEEP = "[" * 100_000 + "]" * 100_000
BIG_BINARY = write("big.bin", bytes(16 * 20_000))  # 20,000 zero words: ~200 KB of disassembly


CASES: list[Case] = [
    # --- a LOAD reading past the end of an init image: legal, the bytes read as 0 ------------
    # load_acc_store: LOAD ACC of 8 elements (32 lanes of 4 bytes) from acc_in.bin at 0xc000,
    # STORE of their low bytes to out.bin at 0x10000. Cut to 58 bytes, lanes 0..14 keep their
    # low byte and lanes 15..31 read 0 (low_bytes computes that expect by hand).
    Case(READ_PAST, "run: LOAD ACC past acc_in.bin computes with zeros", (*M, "run", V),
         r"v: OK: 32 bytes match\n(.|\n)*note: .*v/manifest\.json: insn 0 \(LOAD ACC .*\) reads DRAM "
         r"\[0xc000, 0xc080\) starting inside init\[0\] \('acc_in\.bin', \[0xc000, 0xc03a\)\), "
         r"but bytes \[0xc03a, 0xc080\) are in no init image: they read as 0", exit=0,
         setup=steps(LOAD_ACC_STORE, truncate("v/acc_in.bin", 58),
                     low_bytes("v/acc_in.bin", "v/out.bin", 32))),
    Case(READ_PAST, "run: the image's bytes are gone, so the full image's expect differs",
         (*M, "run", V), r"FAIL: \d+ of 32 bytes differ\n  0x0001000f element \d+ lane 3: expected 47 "
                         r"\(0x2f\), actual 0 \(0x00\)", exit=1,
         setup=steps(LOAD_ACC_STORE, truncate("v/acc_in.bin", 58))),
    Case(READ_PAST, "check: LOAD ACC past acc_in.bin is well-formed", (*M, "check", V),
         r"well-formed: 3 instructions, no findings\n(.|\n)*note: .*insn 0 \(LOAD ACC .*bytes "
         r"\[0xc03a, 0xc080\) are in no init image", exit=0,
         setup=steps(LOAD_ACC_STORE, truncate("v/acc_in.bin", 58))),
    Case(READ_PAST, "check: LOAD UOP past uops.bin reads zero micro-ops", (*M, "check", V),
         r"well-formed: 17 instructions, no findings\n(.|\n)*note: .*insn 0 \(LOAD UOP .*\) reads DRAM "
         r"\[0x0, 0x2c\) starting inside init\[2\] \('uops\.bin', \[0x0, 0x24\)\)", exit=0,
         setup=steps(ALU_ADD, truncate("v/uops.bin", 36))),
    # stride_load_store: rows of 2 elements 5 apart; cut to 10 elements, row 2 (elements 10,
    # 11) lies wholly past acc_in.bin and STOREs as 8 zero bytes at out.bin [32, 40).
    Case(READ_PAST, "run: a strided LOAD's last row wholly past the image", (*M, "run", V),
         r"v: OK: 48 bytes match\n(.|\n)*note: .*insn 0 \(LOAD ACC .*reads DRAM \[0xc000, 0xc0c0\).*"
         r"bytes \[0xc0a0, 0xc0c0\) are in no init image", exit=0,
         setup=steps(vector("stride_load_store"), truncate("v/acc_in.bin", 160), zero("v/out.bin", 32, 40))),

    # --- insn_count beyond the image holding the instructions ------------------------------
    Case(INSN_COUNT, "run: insns.bin one instruction short", (*M, "run", V),
         r"v/manifest\.json: insn_count 17: the instructions are \[0x2000, 0x2110\).*beyond the end "
         r"of init\[3\] \('insns\.bin', \[0x2000, 0x2100\)\): bytes \[0x2100, 0x2110\) \(instruction 16\)",
         setup=steps(ALU_ADD, truncate("v/insns.bin", -16))),
    Case(INSN_COUNT, "check: insn_count one more than insns.bin holds", (*M, "check", V),
         r"insn_count 18: .*beyond the end of init\[3\] \('insns\.bin'.*\(instruction 17\)",
         setup=steps(ALU_ADD, manifest(_setk("insn_count", 18)))),
    Case(INSN_COUNT, "disasm: insn_count one more than insns.bin holds", (*M, "disasm", V),
         r"insn_count 18: .*\(instruction 17\) are in no init image",
         setup=steps(ALU_ADD, manifest(_setk("insn_count", 18)))),
    Case(INSN_COUNT, "run: insns.bin not a whole number of instructions", (*M, "run", V),
         r"insn_count 17: .*bytes \[0x210d, 0x2110\) \(instruction 16\) are in no init image",
         setup=steps(ALU_ADD, truncate("v/insns.bin", -3))),
    Case(INSN_COUNT, "run: insns.bin empty", (*M, "run", V),
         r"insn_count 17: the instructions are \[0x2000, 0x2110\) .*but no init image holds them",
         setup=steps(ALU_ADD, write("v/insns.bin", b""))),
    Case(INSN_COUNT, "check: insn_addr where no init image is", (*M, "check", V),
         r"insn_count 17: the instructions are \[0x100000, 0x100110\).*no init image holds them",
         setup=steps(ALU_ADD, manifest(_setk("insn_addr", 0x100000)))),
    Case(INSN_COUNT, "run: insn_addr 16 bytes before insns.bin", (*M, "run", V),
         r"insn_count 17: .*bytes \[0x1ff0, 0x2000\) \(instruction 0\) are in no init image",
         setup=steps(ALU_ADD, manifest(_setk("insn_addr", 0x1ff0)))),

    # --- a malformed manifest --------------------------------------------------------------
    Case(MANIFEST, "manifest not UTF-8", (*M, "run", V),
         r"v/manifest\.json: not UTF-8 text \(byte 0xff on line 1\)",
         setup=steps(ALU_ADD, raw_manifest(b'{"description": "\xff"}'))),
    Case(MANIFEST, "manifest.json is a directory", (*M, "check", V),
         r"v/manifest\.json: is a directory, expected a JSON file",
         setup=steps(mkdir("v/manifest.json"))),
    Case(MANIFEST, "manifest.json a symlink loop", (*M, "run", V),
         r"v/manifest\.json: cannot read: Too many levels of symbolic links",
         setup=steps(ALU_ADD, symlink("v/manifest.json", "manifest.json"))),
    Case(MANIFEST, "manifest empty", (*M, "run", V), r"v/manifest\.json: not valid JSON",
         setup=steps(ALU_ADD, raw_manifest(""))),
    Case(MANIFEST, "manifest binary garbage", (*M, "check", V), r"v/manifest\.json: not valid JSON",
         setup=steps(ALU_ADD, raw_manifest(b"\x00\x01\x02garbage"))),
    Case(MANIFEST, "manifest a JSON list", (*M, "run", V), r"manifest must be a JSON object",
         setup=steps(ALU_ADD, raw_manifest("[]"))),
    Case(MANIFEST, "manifest with a duplicate key", (*M, "run", V),
         r"v/manifest\.json: not valid JSON: duplicate key 'insn_count'",
         setup=steps(ALU_ADD, raw_manifest('{"format": "vta-vector-1", "insn_addr": 0, '
                                           '"insn_count": 0, "insn_count": 1, "init": []}'))),
    Case(MANIFEST, "manifest nested 100000 deep", (*M, "run", V),
         r"v/manifest\.json: not valid JSON: nested too deeply",
         setup=steps(ALU_ADD, raw_manifest('{"description": ' + DEEP + "}"))),
    Case(MANIFEST, "manifest integer of 5000 digits", (*M, "run", V),
         r"v/manifest\.json: not valid JSON: an integer literal has too many digits",
         setup=steps(ALU_ADD, raw_manifest('{"insn_addr": ' + "9" * 5000 + "}"))),
    Case(MANIFEST, "insn_addr a float", (*M, "run", V), r"insn_addr: must be an integer, got 8192\.0",
         setup=steps(ALU_ADD, manifest(_setk("insn_addr", 8192.0)))),
    Case(MANIFEST, "insn_count negative", (*M, "run", V), r"insn_count: -0x1 is outside",
         setup=steps(ALU_ADD, manifest(_setk("insn_count", -1)))),
    Case(MANIFEST, "unknown key", (*M, "run", V), r"unknown key\(s\) insn_cnt",
         setup=steps(ALU_ADD, manifest(_setk("insn_cnt", 17)))),
    Case(MANIFEST, "init file an absolute path", (*M, "run", V),
         r"init\[3\]\.file: '/etc/hostname' must be a path inside the vector directory",
         setup=steps(ALU_ADD, manifest(_init("insns.bin", file="/etc/hostname")))),
    Case(MANIFEST, "init file outside the vector via ..", (*M, "check", V),
         r"init\[3\]\.file: '\.\./w/insns\.bin' must be a path inside the vector directory",
         setup=steps(ALU_ADD, vector("alu_add", "w"), manifest(_init("insns.bin", file="../w/insns.bin")))),
    Case(MANIFEST, "init file name empty", (*M, "run", V), r"init\[3\]\.file: must be a non-empty",
         setup=steps(ALU_ADD, manifest(_init("insns.bin", file="")))),
    Case(MANIFEST, "init file a symlink loop", (*M, "run", V),
         r"init\[3\]: cannot read file 'insns\.bin': Too many levels of symbolic links",
         setup=steps(ALU_ADD, symlink("v/insns.bin", "insns.bin"))),
    Case(MANIFEST, "init file a directory", (*M, "run", V),
         r"init\[3\]: cannot read file 'insns\.bin': Is a directory",
         setup=steps(ALU_ADD, symlink("v/insns.bin", "."))),
    Case(MANIFEST, "manifest.json a FIFO (would block)", (*M, "check", V),
         r"v/manifest\.json: not a regular file", setup=steps(ALU_ADD, fifo("v/manifest.json"))),
    Case(MANIFEST, "init file a symlink to /dev/zero (would never end)", (*M, "run", V),
         r"init\[2\]: 'uops\.bin' is not a regular file",
         setup=steps(ALU_ADD, symlink("v/uops.bin", "/dev/zero"))),
    Case(MANIFEST, "init images overlap", (*M, "run", V),
         r"init\[3\] \('insns\.bin', \[0x2000, 0x2110\)\) overlaps init\[\d\]",
         setup=steps(ALU_ADD, manifest(lambda m: m["init"].append({"addr": 0x2100, "file": "uops.bin"})))),
    Case(MANIFEST, "expect images overlap", (*M, "run", V),
         r"expect\[0\] \('out\.bin', \[0x10000, 0x100a0\)\) overlaps expect\[1\]",
         setup=steps(ALU_ADD, manifest(lambda m: m["expect"].append({"addr": 0x10004, "file": "out.bin"})))),
    Case(MANIFEST, "init address a string", (*M, "run", V),
         r"init\[3\]\.addr: must be an integer, got '0x2000'",
         setup=steps(ALU_ADD, manifest(_init("insns.bin", addr="0x2000")))),
    Case(MANIFEST, "init image beyond 4 GiB", (*M, "run", V), r"init\[3\]: 'insns\.bin' .* runs beyond 4 GiB",
         setup=steps(ALU_ADD, manifest(_init("insns.bin", addr=(1 << 32) - 16)))),
    Case(MANIFEST, "bases negative", (*M, "run", V), r"bases\.inp: -0x4 is outside",
         setup=steps(ALU_ADD, manifest(_setk("bases", {"inp": -4})))),
    Case(MANIFEST, "config of the manifest a string", (*M, "run", V),
         r"config: a configuration must be a JSON object, got str",
         setup=steps(ALU_ADD, manifest(_setk("config", "small")))),

    # --- run refuses an ill-formed program -------------------------------------------------------
    Case(ILL_FORMED, "run: a data race", (*M, "run", V),
         r"refusing to run an ill-formed program.*--unchecked(.|\n)*data-race", exit=1, setup=RACE),
    Case(ILL_FORMED, "run: a deadlock", (*M, "run", V),
         r"refusing to run an ill-formed program(.|\n)*deadlock", exit=1, setup=DEADLOCK),
    Case(ILL_FORMED, "run: no instructions", (*M, "run", V),
         r"refusing to run(.|\n)*missing-finish", exit=1,
         setup=steps(ALU_ADD, manifest(_setk("insn_count", 0)))),
    Case(ILL_FORMED, "run: instructions are garbage bytes", (*M, "run", V),
         r"refusing to run(.|\n)*illegal-", exit=1,
         setup=steps(ALU_ADD, write("v/insns.bin", bytes(range(256)) + bytes(16)))),
    Case(ILL_FORMED, "run --unchecked runs a data race and says so", (*M, "run", "--unchecked", V),
         r"running unchecked: the checker's 3 finding\(s\) are ignored.*\n.*executed 3 instructions",
         exit=0, setup=RACE),
    Case(ILL_FORMED, "run --unchecked --schedule: the deadlock is one line", (*M, "run", "--unchecked",
                                                                              "--schedule", "3", V),
         r"^error: instruction 1 .* breaks rule 'deadlock'", setup=DEADLOCK),

    # --- numbers -----------------------------------------------------------------------------
    Case(NUMBER, "gen --count 0", (*M, "gen", "--seed", "0", "--count", "0", "--out", "{tmp}/g"),
         r"gen: error: argument --count: 0 must be 1 or more"),
    Case(NUMBER, "gen --count -3", (*M, "gen", "--seed", "0", "--count", "-3", "--out", "{tmp}/g"),
         r"argument --count: -3 must be 1 or more"),
    Case(NUMBER, "gen --seed -1", (*M, "gen", "--seed", "-1", "--out", "{tmp}/g"),
         r"argument --seed: -1 is negative"),
    Case(NUMBER, "gen --seed not a number", (*M, "gen", "--seed", "x1", "--out", "{tmp}/g"),
         r"argument --seed: 'x1' is not an integer"),
    Case(NUMBER, "gen --seed of 5000 digits", (*M, "gen", "--seed", "9" * 5000, "--out", "{tmp}/g"),
         r"argument --seed: '9{32}'\.\.\. \(5000 characters\) has too many digits"),
    Case(NUMBER, "gen --seed 2^64", (*M, "gen", "--seed", str(1 << 64), "--out", "{tmp}/g"),
         r"argument --seed: '18446744073709551616' is too large; a seed is 0 \.\. 2\^64-1"),
    Case(NUMBER, "run --schedule 2^64", (*M, "run", VEC, "--schedule", str(1 << 64)),
         r"argument --schedule: '18446744073709551616' is too large"),
    Case(NUMBER, "check --cmd-queue-depth 0", (*M, "check", VEC, "--cmd-queue-depth", "0"),
         r"check: error: argument --cmd-queue-depth: 0 must be 1 or more"),
    Case(NUMBER, "check --cmd-queue-depth 65", (*M, "check", VEC, "--cmd-queue-depth", "65"),
         r"argument --cmd-queue-depth: 65 is out of range \[1, 64\]"),
    Case(NUMBER, "check --token-queue-depth -1", (*M, "check", VEC, "--token-queue-depth", "-1"),
         r"argument --token-queue-depth: -1 must be 1 or more"),
    Case(NUMBER, "check --token-queue-depth 256", (*M, "check", VEC, "--token-queue-depth", "256"),
         r"argument --token-queue-depth: 256 is out of range \[1, 255\]"),
    Case(NUMBER, "run --schedule -1", (*M, "run", VEC, "--schedule", "-1"),
         r"run: error: argument --schedule: -1 is negative"),
    Case(NUMBER, "run --schedule 1.5", (*M, "run", VEC, "--schedule", "1.5"),
         r"argument --schedule: '1\.5' is not an integer"),

    # --- paths -------------------------------------------------------------------------------
    Case(PATH, "asm -o a directory", (*M, "asm", "{tmp}/f.s", "-o", "{tmp}"),
         r"-o .*: is a directory, expected a file path", setup=write("f.s", "FINISH\n")),
    Case(PATH, "asm -o under a regular file", (*M, "asm", "{tmp}/f.s", "-o", "{tmp}/f.s/out.bin"),
         r"-o .*f\.s/out\.bin: cannot write: Not a directory", setup=write("f.s", "FINISH\n")),
    Case(PATH, "asm -o in a missing directory", (*M, "asm", "{tmp}/f.s", "-o", "{tmp}/no/out.bin"),
         r"-o .*no/out\.bin: cannot write: No such file or directory", setup=write("f.s", "FINISH\n")),
    Case(PATH, "asm source a directory", (*M, "asm", "{tmp}", "-o", "{tmp}/out.bin"),
         r"error: .*: is a directory, expected a file"),
    Case(PATH, "asm source missing", (*M, "asm", "{tmp}/missing.s", "-o", "{tmp}/out.bin"),
         r"missing\.s: cannot read: No such file or directory"),
    Case(PATH, "asm -o the source itself", (*M, "asm", "{tmp}/f.s", "-o", "{tmp}/f.s"),
         r"-o .*f\.s: is the source file itself", setup=write("f.s", "FINISH\n")),
    Case(PATH, "asm -o a symlink to the source", (*M, "asm", "{tmp}/f.s", "-o", "{tmp}/o.bin"),
         r"-o .*o\.bin: is the source file itself",
         setup=steps(write("f.s", "FINISH\n"), symlink("o.bin", "f.s"))),
    Case(PATH, "asm -o /dev/full", (*M, "asm", "{tmp}/f.s", "-o", "/dev/full"),
         r"-o /dev/full: cannot write: No space left on device", setup=write("f.s", "FINISH\n")),
    Case(PATH, "asm source /dev/zero (would never end)", (*M, "asm", "/dev/zero", "-o", "{tmp}/o.bin"),
         r"/dev/zero: not a regular file"),
    Case(PATH, "disasm a FIFO (would block)", (*M, "disasm", "{tmp}/p"), r"p: not a regular file",
         setup=fifo("p")),
    Case(PATH, "stats names one vector three times: counted once",
         (*M, "stats", VEC, VEC, "vectors/../vectors/alu_add"), r"\n1 vectors; required", exit=0),
    Case(PATH, "disasm a directory that is not a vector", (*M, "disasm", "{tmp}"),
         r"error: .*: a directory but not a vector \(no manifest\.json\)"),
    Case(PATH, "run a regular file", (*M, "run", "{tmp}/f.s"),
         r"f\.s: not a directory; a vector is a directory holding manifest\.json",
         setup=write("f.s", "FINISH\n")),
    Case(PATH, "check a regular file", (*M, "check", "vectors/alu_add/manifest.json"),
         r"manifest\.json: not a directory; a vector is a directory"),
    Case(PATH, "stats a regular file", (*M, "stats", VEC, "vectors/README.md"),
         r"README\.md: not a directory; expected a vector"),
    Case(PATH, "stats a symlink loop", (*M, "stats", "{tmp}/loop"),
         r"loop: neither a vector \(no manifest\.json\) nor a directory of vectors",
         setup=symlink("loop", "loop")),
    Case(PATH, "run a symlink loop", (*M, "run", "{tmp}/loop"),
         r"loop: a dangling or looping symbolic link", setup=symlink("loop", "loop")),
    Case(PATH, "run a missing directory", (*M, "run", "{tmp}/missing"), r"missing: no such directory"),
    Case(PATH, "gen --out a regular file", (*M, "gen", "--seed", "0", "--out", "{tmp}/f.s"),
         r"--out .*f\.s: not a directory", setup=write("f.s", "FINISH\n")),
    Case(PATH, "gen --out under a regular file", (*M, "gen", "--seed", "0", "--out", "{tmp}/f.s/g"),
         r"--out .*f\.s/g: cannot create the directory: Not a directory", setup=write("f.s", "FINISH\n")),
    Case(PATH, "gen --out holding a file where a vector goes", (*M, "gen", "--seed", "0", "--out", "{tmp}/g"),
         r"--out .*/g: cannot write .*seed_0_0: File exists", setup=write("g/seed_0_0", "x")),
    Case(PATH, "config a directory", (*M, "config", "{tmp}"),
         r"error: .*: is a directory, expected a JSON file"),

    # --- arguments argparse rejects: one line too ---------------------------------------------
    Case(USAGE, "no command", M, r"^python -m models: error: the following arguments are required: command"),
    Case(USAGE, "unknown command", (*M, "assemble"), r"invalid choice: 'assemble'"),
    Case(USAGE, "unknown option", (*M, "run", VEC, "--fast"),
         r"unrecognized arguments: --fast"),
    Case(USAGE, "bench with an argument", (*M, "bench", "x"), r"unrecognized arguments: x"),
    Case(USAGE, "asm without -o", (*M, "asm", "x.s"), r"models asm: error: .*required: -o/--output"),

    # --- disasm of a vector with another configuration ------------------------------------------
    Case(DISASM_CFG, "disasm --config default of a small vector", (*M, "disasm", VEC, "--config", "default"),
         r"--config default \(the defaults\) differs from the configuration of vector vectors/alu_add "
         r"\(LOG_BLOCK=2, .*\)"),
    Case(DISASM_CFG, "disasm --json --config batch2", (*M, "disasm", "--json", VEC, "--config", "batch2"),
         r"--config batch2 \(LOG_BATCH=1.*\) differs from the configuration of vector"),
    Case(DISASM_CFG, "disasm --config of a JSON file naming another config",
         (*M, "disasm", VEC, "--config", "{tmp}/c.json"),
         r"--config .*c\.json \(LOG_BLOCK=2, .*LOG_ACC_BUFF_SIZE=11\) differs",
         setup=write("c.json", json.dumps({**SMALL, "LOG_ACC_BUFF_SIZE": 11}))),
    Case(DISASM_CFG, "disasm --config of a JSON file equal to the vector's is accepted",
         (*M, "disasm", VEC, "--config", "{tmp}/c.json"), r"^LOAD UOP ", exit=0,
         setup=write("c.json", json.dumps(SMALL))),
    Case(DISASM_CFG, "disasm --config equal to the vector's is accepted",
         (*M, "disasm", VEC, "--config", "small"), r"^LOAD UOP ", exit=0),

    # --- binaries disasm cannot take ------------------------------------------------------------
    Case(BINARY, "disasm a binary of 17 bytes", (*M, "disasm", "{tmp}/b.bin"),
         r"17 bytes is not a whole number of 16-byte instructions", setup=write("b.bin", bytes(17))),
    Case(BINARY, "disasm --uop a binary of 6 bytes", (*M, "disasm", "--uop", "{tmp}/b.bin"),
         r"6 bytes is not a whole number of 4-byte micro-ops", setup=write("b.bin", bytes(6))),
    Case(BINARY, "disasm --uop of a vector", (*M, "disasm", "--uop", VEC),
         r"--uop disassembles a binary file of micro-ops; a vector's program is instructions"),
    Case(BINARY, "disasm --json of an illegal opcode", (*M, "disasm", "--json", "{tmp}/b.bin"),
         r"instruction 0: .*JSON cannot express it", setup=write("b.bin", b"\x07" + bytes(15))),

    # --- configuration files and names ----------------------------------------------------------
    Case(CONFIG, "--config not UTF-8", (*M, "config", "{tmp}/c.json"),
         r"c\.json: not UTF-8 text \(byte 0xff on line 2\)", setup=write("c.json", b"{\n\xff}")),
    Case(CONFIG, "--config a directory", (*ASM, "--config", "{tmp}/d.json"),
         r"d\.json: is a directory, expected a JSON file",
         setup=steps(write("f.s", "FINISH"), mkdir("d.json"))),
    Case(CONFIG, "--config a symlink loop",
         (*M, "gen", "--seed", "0", "--out", "{tmp}/g", "--config", "{tmp}/c.json"),
         r"c\.json: cannot read: Too many levels of symbolic links", setup=symlink("c.json", "c.json")),
    Case(CONFIG, "--config with a duplicate key", (*M, "config", "{tmp}/c.json"),
         r"c\.json: not valid JSON: duplicate key 'LOG_BLOCK'",
         setup=write("c.json", '{"LOG_BLOCK": 2, "LOG_BLOCK": 3}')),
    Case(CONFIG, "--config nested 100000 deep", (*M, "config", "{tmp}/c.json"),
         r"c\.json: not valid JSON: nested too deeply", setup=write("c.json", DEEP)),
    Case(CONFIG, "--config a misspelt shipped name", (*M, "disasm", "{tmp}/b.bin", "--config", "smal"),
         r"'smal': configuration file not found, and not a shipped configuration "
         r"\(batch2, default, small, upstream_chisel\)",
         setup=write("b.bin", bytes(16))),
    Case(CONFIG, "--config /dev/zero (would never end)", (*M, "config", "/dev/zero"),
         r"/dev/zero: not a regular file"),
    Case(CONFIG, "--config a JSON list", (*M, "config", "{tmp}/c.json"),
         r"c\.json: a configuration must be a JSON object, got list", setup=write("c.json", "[1]")),
    Case(CONFIG, "--config value out of range", (*M, "config", "{tmp}/c.json"),
         r"'LOG_BLOCK' = 9 is out of range \[1, 5\]", setup=write("c.json", '{"LOG_BLOCK": 9}')),
    Case(CONFIG, "--config value a float", (*M, "config", "{tmp}/c.json"),
         r"'LOG_BLOCK' must be an integer, got 2\.0", setup=write("c.json", '{"LOG_BLOCK": 2.0}')),
    Case(CONFIG, "--config unknown key", (*M, "config", "{tmp}/c.json"),
         r"unknown configuration key 'LOG_BLOK'", setup=write("c.json", '{"LOG_BLOK": 2}')),
    Case(CONFIG, "--config random: with a seed that is not a number",
         (*M, "gen", "--seed", "0", "--out", "{tmp}/g", "--config", "random:seven"),
         r"'random:seven': a random configuration is 'random:SEED' with SEED a non-negative decimal"),
    Case(CONFIG, "--config random: with a seed beyond 2^64", (*M, "config", "random:18446744073709551616"),
         r"'random:18446744073709551616': the seed of a random configuration must be 0 \.\. 2\^64-1"),

    # --- assembly text --------------------------------------------------------------------------
    Case(ASSEMBLY, "source not UTF-8", ASM,
         r"f\.s: not UTF-8 text \(byte 0xe9 on line 2\)", setup=write("f.s", b"FINISH\nFINISH # caf\xe9\n")),
    Case(ASSEMBLY, "a NUL byte in an opcode", ASM,
         r"f\.s:1: unknown opcode 'FINISH\\x00'", setup=write("f.s", b"FINISH\x00\n")),
    Case(ASSEMBLY, "number with _ separators", ASM,
         r"f\.s:1: field 'x_size': '1_0' is not a number \(decimal or 0x hex\)",
         setup=write("f.s", "LOAD INP x_size=1_0\n")),
    Case(ASSEMBLY, "number in binary", ASM,
         r"f\.s:1: field 'y_size': '0b11' is not a number", setup=write("f.s", "LOAD INP y_size=0b11\n")),
    Case(ASSEMBLY, "hex number of 5000 digits", ASM,
         r"f\.s:1: field 'x_size': '0xfff.*' \(5002 characters\) is too large for any field",
         setup=write("f.s", "LOAD INP x_size=0x" + "f" * 5000 + "\n")),
    Case(ASSEMBLY, "decimal number of 5000 digits", ASM,
         r"f\.s:1: field 'x_size': '999.*' \(5000 characters\) is too large for any field",
         setup=write("f.s", "LOAD INP x_size=" + "9" * 5000 + "\n")),
    Case(ASSEMBLY, "field out of range", ASM,
         r"f\.s:2: field 'imm' = 40000 does not fit 16 signed bits",
         setup=write("f.s", "FINISH\nALU ADD use_imm imm=40000\n")),
    Case(ASSEMBLY, "unknown field", ASM,
         r"f\.s:1: unknown field 'x_sise'", setup=write("f.s", "LOAD INP x_sise=1\n")),
    Case(ASSEMBLY, "--json duplicate key", ASM_JSON,
         r"f\.json:1: field 'opcode' given twice",
         setup=write("f.json", '{"opcode": "FINISH", "opcode": "LOAD"}\n')),
    Case(ASSEMBLY, "--json nested 100000 deep", ASM_JSON,
         r"f\.json:1: not valid JSON: nested too deeply", setup=write("f.json", '{"x": ' + DEEP + "}\n")),
    Case(ASSEMBLY, "--json integer of 5000 digits", ASM_JSON,
         r"f\.json:1: not valid JSON: an integer literal has too many digits",
         setup=write("f.json", '{"x_size": ' + "9" * 5000 + "}\n")),
    Case(ASSEMBLY, "--json field a float", ASM_JSON,
         r"f\.json:1: field 'x_size' must be an integer, got 1\.5",
         setup=write("f.json", '{"opcode": "LOAD", "x_size": 1.5}\n')),
    Case(ASSEMBLY, "--uop with an instruction line", (*M, "asm", "--uop", "{tmp}/f.s", "-o", "{tmp}/o.bin"),
         r"f\.s:1: micro-op lines start with UOP, got 'LOAD'", setup=write("f.s", "LOAD UOP\n")),

    # --- the reader of the output goes away ----------------------------------------------------
    Case(OUTPUT, "disasm | head -1",
         ("sh", "-c", f"{sys.executable} -m models disasm {{tmp}}/big.bin | head -1"),
         r"^LOAD UOP\n$", exit=0, setup=BIG_BINARY),
    Case(OUTPUT, "disasm --json | head -1", ("sh", "-c", f"{sys.executable} -m models disasm --json "
                                                      f"{{tmp}}/big.bin | head -1"),
         r'^\{"opcode": "LOAD"', exit=0, setup=BIG_BINARY),
    Case(OUTPUT, "config > /dev/full", ("sh", "-c", f"{sys.executable} -m models config > /dev/full"),
         r"^error: cannot write to standard output: No space left on device$"),
    Case(OUTPUT, "disasm > /dev/full", ("sh", "-c", f"{sys.executable} -m models disasm {VEC} > /dev/full"),
         r"^error: cannot write to standard output: No space left on device$"),
]


def test_case_names_are_unique() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)
