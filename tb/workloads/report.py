"""The workload report: build/workloads/report.md, report.json and roofline.png.

Markdown for people (per configuration: verdicts, cycles, roofline, the model's
prediction next to the RTL's, where the lost cycles go; the design-space table when
several configurations ran), JSON for tools (every figure and counter of every case),
and a roofline plot (MACs per cycle against MACs per DRAM byte, one roof per
configuration).
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Sequence

from models.config import VtaConfig
from models.workloads.designs import macs_per_cycle, sram_bytes
from models.workloads.layers import OCCURRENCES
from tb.plan.dutmap import NATIVE, is_native
from tb.workloads.case import Case
from tb.workloads.hardware import section
from tb.workloads.hardware import write as write_hardware


def _cycles(case: Case) -> int | None:
    return int(case.measured["cycles"]) if case.measured and case.passed else None


def speedups(cases: Sequence[Case]) -> dict[tuple[str, str], float]:
    """(config, layer) -> cycles with vt=1 / cycles with vt=2, where both passed."""
    by = {(c.config, c.layer, c.vt): _cycles(c) for c in cases}
    out = {}
    for (cfg, layer, vt), cyc in by.items():
        one = by.get((cfg, layer, 1))
        if vt == 2 and cyc and one:
            out[(cfg, layer)] = round(one / cyc, 3)
    return out


def network_cycles(cases: Sequence[Case], config: str, vt: int) -> int | None:
    """Cycles of one pass of ResNet-18 (every layer weighted by its occurrences), or None
    unless every layer of the table ran and passed."""
    by = {c.layer: _cycles(c) for c in cases if c.config == config and c.vt == vt}
    if set(by) != set(OCCURRENCES) or any(v is None for v in by.values()):
        return None
    return sum(OCCURRENCES[name] * int(v) for name, v in by.items() if v is not None)


def _pct(value: float) -> str:
    return f"{value:.3f}"


def _results_table(cases: Sequence[Case], speed: dict[tuple[str, str], float]) -> list[str]:
    lines = ["| layer | shape | vt | tile (rows x cols, oc, ic blocks) | verdict | insns | GEMM uops | "
             "DRAM bytes | cycles (RTL) | cycles (model) | GEMM util | bound | achieved | "
             "achieved (model) | vt=2 speed-up | wall s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        m, p = c.measured, c.predicted
        verdict = "EXCLUDED" if c.excluded else "ERROR" if c.error else "PASS" if c.passed else "FAIL"
        tile = (f"{c.tiling['rows']}x{c.tiling['cols']}, {c.tiling['oc_blocks']}, {c.tiling['ic_blocks']}"
                if c.tiling else "-")
        gemm = f"{p['counters']['GEMM_UOPS']:,}" if p else "-"
        dram = f"{m['dram_bytes']:,}" if m else "-"
        cyc = f"{m['cycles']:,}" if m else "-"
        pred = f"{p['cycles']:,}" if p else "-"
        if m and p:
            pred += f" ({(p['cycles'] - m['cycles']) / m['cycles']:+.1%})"
        bound = f"{m['bound']:,.0f} ({m['bound_by']})" if m else "-"
        sp = speed.get((c.config, c.layer)) if c.vt == 2 else None
        lines.append(f"| {c.layer} | {c.description or '-'} | {c.vt} | {tile} | {verdict} | "
                     f"{c.insns or '-'} | {gemm} | {dram} | {cyc} | {pred} | "
                     f"{_pct(m['gemm_utilisation']) if m else '-'} | {bound} | "
                     f"{_pct(m['achieved']) if m else '-'} | {_pct(p['achieved']) if p else '-'} | "
                     f"{f'{sp:.2f}x' if sp else '-'} | {c.wall:.1f} |")
    return lines


def _loss_table(cases: Sequence[Case]) -> list[str]:
    lines = ["| layer | vt | cycles - bound | compute idle | compute token waits | compute overhead | "
             "load exec | load token waits | store exec | store token waits |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        if "losses" not in c.measured:
            continue
        m, loss = c.measured, c.measured["losses"]
        cells = [f"{loss[k]:,}" for k in ("compute_idle", "compute_token_wait", "compute_overhead",
                                          "load_exec", "load_token_wait", "store_exec", "store_token_wait")]
        lines.append(f"| {c.layer} | {c.vt} | {m['cycles'] - m['bound']:,.0f} | " + " | ".join(cells) + " |")
    return lines


def _design_table(cases: Sequence[Case], configs: dict[str, VtaConfig]) -> list[str]:
    layers = [name for name in OCCURRENCES if any(c.layer == name for c in cases)]
    vt = max(c.vt for c in cases)
    lines = [f"Cycles per layer with vt={vt} (FAIL: did not verify), and one pass of ResNet-18 "
             f"(each layer times its occurrences) per image.", "",
             "| configuration | BLOCK | BATCH | MACs/cycle | SRAM KiB | "
             + " | ".join(layers) + " | network cycles / image |",
             "|---|---|---|---|---|" + "---|" * len(layers) + "---|"]
    for name, cfg in configs.items():
        cells = []
        for layer in layers:
            case = next((c for c in cases if c.config == name and c.layer == layer and c.vt == vt), None)
            cyc = _cycles(case) if case else None
            cells.append(f"{cyc:,}" if cyc else "FAIL")
        net = network_cycles(cases, name, vt)
        lines.append(f"| {name} | {cfg.block_in} | {cfg.batch} | {macs_per_cycle(cfg)} | "
                     f"{sram_bytes(cfg) / 1024:,.0f} | " + " | ".join(cells)
                     + f" | {f'{net // cfg.batch:,}' if net else '-'} |")
    return lines


def plot_roofline(path: Path, cases: Sequence[Case], configs: dict[str, VtaConfig]) -> None:
    """MACs/cycle against MACs per DRAM byte; each configuration's roof min(peak, bus x I)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 6))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for n, (name, cfg) in enumerate(configs.items()):
        colour = colours[n % len(colours)]
        peak, bus = macs_per_cycle(cfg), cfg.bus_bytes
        xs = [2 ** (e / 4) for e in range(-8, 60)]
        ax.plot(xs, [min(peak, bus * x) for x in xs], color=colour, label=f"{name} roof")
        for c in cases:
            if c.config != name or not c.measured:
                continue
            m = c.measured
            macs = m["counters"]["GEMM_UOPS"] * peak
            x, y = macs / max(1, m["dram_bytes"]), macs / m["cycles"]
            ax.plot(x, y, "o" if c.vt == 2 else "s", color=colour, fillstyle="full" if c.passed else "none")
            ax.annotate(f"{c.layer}/vt{c.vt}", (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("arithmetic intensity: MACs per DRAM byte")
    ax.set_ylabel("MACs per cycle (GEMM)")
    ax.set_title("VTA RTL on ResNet-18 layers (o: vt=2, s: vt=1; hollow: failed)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(out: Path, cases: Sequence[Case], configs: dict[str, VtaConfig], sim: str, scale: str,
                 command: str, wall: float, dut: str = NATIVE, hardware: dict[str, Any] | None = None,
                 arguments: dict[str, str] | None = None) -> list[Path]:
    """Write report.md, report.json and roofline.png under ``out`` (and, with ``hardware``,
    the design space's hardware section and pareto.png: tb/workloads/hardware.py); returns
    their paths. ``arguments``: each configuration's argument (shipped name or JSON path)."""
    out.mkdir(parents=True, exist_ok=True)
    speed = speedups(cases)
    native = is_native(dut)
    where = "the RTL" if native else f"DUT {dut}"
    work = ("" if native else " This design has no work counters: the roofline figures divide the "
            "model's work (micro-ops, DRAM bytes) by its CYCLES register.")
    left = [c for c in cases if c.excluded]
    refused = sum(bool(c.error) for c in cases)
    md = [f"# Workloads: ResNet-18 layers ({scale}) on {where} ({sim})", "",
          f"Command: `{command}` ({wall:.0f} s wall). Every program ran through the testbench in "
          f"fast mode with every checker on; cycles are the design's CYCLES counter. Definitions: "
          f"README \"Workloads\" and tb/workloads/figures.py.{work}", "",
          f"{sum(c.passed and not c.excluded for c in cases)} of {len(cases)} passed, "
          f"{len(left)} excluded{f', {refused} refused (ERROR)' if refused else ''}.", ""]
    for name, cfg in configs.items():
        mine = [c for c in cases if c.config == name]
        md += [f"## Configuration {name} (BLOCK {cfg.block_in}, BATCH {cfg.batch}, "
               f"{macs_per_cycle(cfg)} MACs/cycle, bus {cfg.bus_bytes} B/cycle)", ""]
        md += _results_table(mine, speed) + [""]
        if any("losses" in c.measured for c in mine):
            md += ["Where the cycles beyond the bound go (cycles; the modules overlap, so the "
                   "columns do not add up):", ""] + _loss_table(mine) + [""]
        for vt in sorted({c.vt for c in mine}):
            net = network_cycles(mine, name, vt)
            if net:
                md += [f"ResNet-18 pass, vt={vt}: {net:,} cycles for {cfg.batch} image(s).", ""]
        notes = [f"- ERROR {c.layer} vt={c.vt}: {c.error}" for c in mine if c.error]
        notes += [f"- FAIL {c.layer} vt={c.vt}: {c.failure.splitlines()[0] if c.failure else ''}"
                  + (f" (repro: `{c.repro(sim)}`)" if c.vector else "")
                  for c in mine if not c.passed and not c.excluded and not c.error]
        notes += [f"- EXCLUDED {c.layer} vt={c.vt}: {c.excluded}" for c in mine if c.excluded]
        md += notes + ([""] if notes else [])
    if len(configs) > 1:
        md += ["## Design space", ""] + _design_table(cases, configs) + [""]
    md += ["![roofline](roofline.png)", ""]
    if hardware is not None:
        md += section(hardware)
    paths = [out / "report.md", out / "report.json", out / "roofline.png"]
    paths[0].write_text("\n".join(md))
    data = {"command": command, "sim": sim, "dut": dut, "scale": scale, "wall_s": round(wall, 1),
            "configs": {name: {"block": cfg.block_in, "batch": cfg.batch,
                               "macs_per_cycle": macs_per_cycle(cfg), "sram_bytes": sram_bytes(cfg),
                               "overrides": cfg.overrides(), "argument": (arguments or {}).get(name, name),
                               "network_cycles": {vt: network_cycles(cases, name, vt) for vt in (1, 2)}}
                        for name, cfg in configs.items()},
            "cases": [dict(asdict(c), vt2_speedup=speed.get((c.config, c.layer)) if c.vt == 2 else None,
                           repro=c.repro(sim)) for c in cases]}
    if hardware is not None:
        data["hardware"] = hardware
    paths[1].write_text(json.dumps(data, indent=1))
    plot_roofline(paths[2], cases, configs)
    if hardware is not None:
        paths += write_hardware(out, hardware)
    return paths
