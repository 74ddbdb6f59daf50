"""The design space in time and area: per design point, resources from `make synth`, whether
they fit the named parts, fmax from `make timing`, and the time of a ResNet-18 pass.

    python -m tb.workloads.hardware OUT [--hw 1|cached] [--upstream NAME|PATH] [--upstream-report FILE]

`make workloads CONFIG=designs` (several configurations) adds these figures to its report
(``--hw 1``, the default: every result missing from the caches is made, with progress);
``HW=0`` leaves them out and the report says so; ``HW=cached`` takes only what the caches
hold and names what is missing with the command that makes it. This module's command
recomputes them for a finished run's OUT/report.json (after a `make synth` or `make timing`
of its own, or a run with HW=0) and rewrites the section of OUT/report.md, OUT/report.json's
"hardware" and OUT/pareto.png.

Per design point (tb/synth, tb/timing, each through its own cache: a cached result is reused
without running Yosys or nextpnr):

* resources on Xilinx 7-series and ECP5 (Yosys's counts) and the verdicts of
  tb/synth/parts.py: the Zynq-7020 with the issue's budget, the LFE5UM5G-85F;
* fmax on the LFE5UM5G-85F-8BG381 (seed 1, 100 MHz constraint: make timing's defaults), only
  for a point whose ECP5 counts fit that part; for the others the reason, never a blank;
* one ResNet-18 pass per image: cycles (the pass's cycles / BATCH), time = cycles / fmax,
  GOPS = 2 x MACs of the pass (the layer table's real channels times each layer's
  occurrences) / time, and the peak 2 x MACs/cycle x fmax (the paper's figure: every MAC busy
  every cycle) beside it;
* upstream's Chisel VTA as one more point: its resources from `make synth DUT=upstream-chisel`,
  its cycles from `make workloads DUT=upstream-chisel`'s report.json (beside OUT, unless
  --upstream-report names another), when present.

Any figure that cannot be had (a result not cached, a Yosys or nextpnr failure, an unreadable
or malformed cached document, upstream's netlist absent) is one line naming the design point
and the file, printed and written into the report's list of what is missing; the rest is made.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from models.config import ConfigError
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from models.workloads.designs import design_points, macs_per_cycle
from models.workloads.layers import OCCURRENCES, get_layer
from tb.duts.rtlports import RtlError
from tb.duts.schema import ProfileError
from tb.paths import ROOT
from tb.synth import __main__ as synth_cli
from tb.synth.design import Design, DesignError, design
from tb.synth.parts import PARTS, Part
from tb.synth.stat import StatError
from tb.synth.targets import TARGETS
from tb.synth.yosys import YosysError
from tb.timing import __main__ as timing_cli
from tb.timing.nextpnr import NextpnrError
from tb.timing.parts import DEFAULT_PART
from tb.timing.results import ReportError
from tb.timing.wrapper import WrapperError

#: HW=: 1 makes what the caches lack, cached takes only what they hold, 0 skips it all
SETTINGS = ("0", "1", "cached")
#: the upstream design's profile, and the directory of its `make workloads` beside OUT
UPSTREAM = "upstream-chisel"
UPSTREAM_WORKLOADS = "workloads-upstream-chisel"
#: the parts of the verdicts: (target, part key of tb/synth/parts.py)
XILINX, ECP5 = ("xilinx", "xc7z020"), ("ecp5", "LFE5UM5G-85F")
#: how a resource of each target is named in the report
NAMES: dict[str, dict[str, str]] = {
    "xilinx": {"lut": "LUT", "ff": "FF", "bram": "RAMB36", "dsp": "DSP48E1"},
    "ecp5": {"lut": "LUT4", "ff": "FF", "bram": "DP16KD", "dsp": "MULT18X18D"},
}
SECTION = "## Hardware figures of the design space"
PLOT = "pareto.png"


class HardwareError(ValueError):
    """A figure that cannot be had; the message names the design point and the file."""


@dataclass
class Point:
    """One design point's figures (None where missing; ``missing`` says why)."""

    name: str
    config: str                      # the configuration argument, or the DUT profile
    block: int
    batch: int
    macs_per_cycle: int
    macs_per_image: int | None = None
    cycles_per_image: float | None = None
    synth: dict[str, dict[str, Any]] = field(default_factory=dict)   # target -> figures
    fits: dict[str, bool] = field(default_factory=dict)              # part key -> verdict
    fmax_mhz: float | None = None
    no_fmax: str = ""
    missing: list[str] = field(default_factory=list)
    upstream: bool = False

    @property
    def time_ms(self) -> float | None:
        """One image's pass: cycles / fmax."""
        if self.fmax_mhz is None or self.cycles_per_image is None:
            return None
        return self.cycles_per_image / (self.fmax_mhz * 1e3)

    @property
    def gops(self) -> float | None:
        """2 ops per MAC of the pass over its time."""
        if self.time_ms is None or self.macs_per_image is None:
            return None
        return 2 * self.macs_per_image / (self.time_ms * 1e-3) / 1e9

    @property
    def peak_gops(self) -> float | None:
        """2 x MACs/cycle x fmax: every MAC busy every cycle."""
        return None if self.fmax_mhz is None else 2 * self.macs_per_cycle * self.fmax_mhz / 1e3

    def doc(self) -> dict[str, Any]:
        return {**asdict(self), "time_ms": self.time_ms, "gops": self.gops, "peak_gops": self.peak_gops}


# --- what a pass is ------------------------------------------------------------------------

def pass_macs(scale: str, block_in: int, block_out: int, layers: Sequence[str]) -> int | None:
    """MACs of one image's ResNet-18 pass: each layer's (real channels) times its occurrences;
    None unless every layer of the network ran."""
    if set(layers) != set(OCCURRENCES):
        return None
    return sum(n * get_layer(name, scale, block_in, block_out).macs for name, n in OCCURRENCES.items())


# --- resources and verdicts ------------------------------------------------------------------

def figures_of(doc: dict[str, Any], part: Part) -> tuple[dict[str, Any], dict[str, Any]]:
    """A synthesis document's figures on ``part`` (LUTs with those used as LUT-RAM, block RAM
    in the part's units) and the part's verdict. KeyError/TypeError/ValueError if malformed."""
    verdict = part.verdict(doc)
    used = {r: row["used"] for r, row in verdict["rows"].items()}
    shares = {r: row["share"] for r, row in verdict["rows"].items()}
    return {"used": used, "shares": shares, "fits": verdict["fits"],
            "over": [r for r, row in verdict["rows"].items() if row["share"] > row["budget"]]}, verdict


def no_fit_reason(target: str, part: Part, figures: dict[str, Any]) -> str:
    """`does not fit LFE5UM5G-85F (DP16KD 104.3 %, MULT18X18D 195.5 %)`."""
    over = ", ".join(f"{NAMES[target][r]} {100 * figures['shares'][r]:.1f} %" for r in figures["over"])
    return f"does not fit {part.name.split(' ')[0]} ({over})"


def pareto(points: dict[str, tuple[float, float]]) -> set[str]:
    """The names of the points no other point beats: none has x and y both at most its own
    with one of them less (lower is better on both axes)."""
    front = set()
    for name, (x, y) in points.items():
        if not any(ox <= x and oy <= y and (ox < x or oy < y)
                   for other, (ox, oy) in points.items() if other != name):
            front.add(name)
    return front


# --- the caches --------------------------------------------------------------------------------

def shown(path: Path) -> str:
    return synth_cli.shown(path)


def _read(path: Path, what: str, point: str) -> dict[str, Any] | None:
    """A cached document, None when absent; HardwareError when there but unreadable."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise HardwareError(f"{point}: {shown(path)}: unreadable {what} ({exc})") from None
    if not isinstance(data, dict):
        raise HardwareError(f"{point}: {shown(path)}: not a {what} (a JSON {type(data).__name__})")
    return data


def _stored(point: str, path: Path, what: str, setting: str, redo: str) -> dict[str, Any] | None:
    """A cached document, or None when it is unreadable and HW=1 will make it again (``redo``
    says how); under the other modes an unreadable one is the HardwareError of _read."""
    try:
        return _read(path, what, point)
    except HardwareError:
        if setting != "1":
            raise
        print(f"{point}: {shown(path)}: unreadable, {redo} again", flush=True)
        return None


def _not_made(point: str, path: Path, stored: dict[str, Any] | None, command: str) -> HardwareError:
    """Why a result is missing where HW is not 1: stale or not cached, with the command."""
    state = "stale (made from other sources)" if stored is not None else "not in the cache"
    return HardwareError(f"{point}: {shown(path)}: {state}: {command}")


def _failed(point: str, where: Path, command: str, exc: BaseException) -> HardwareError:
    """A tool that stopped: one line naming the point, its directory and the command."""
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return HardwareError(f"{point}: {shown(where)}: {command} failed: {first}")


def synth_doc(point: str, d: Design, target: str, setting: str, knob: str) -> dict[str, Any]:
    """The cached synthesis result (HW=1: made when absent or stale). HardwareError with
    the one line to print when there is none."""
    t = TARGETS[target]
    _, key = synth_cli.script_and_key(d, t)
    path = synth_cli.out_dir() / f"{d.label}-{target}" / "resources.json"
    stored = _stored(point, path, "synthesis result", setting, "synthesizing")
    if stored is not None and stored.get("key") == key:
        print(f"{point}: synth {target}: cached ({shown(path)})", flush=True)
        return stored
    command = f"make synth {knob} TARGET={target}"
    if setting != "1":
        raise _not_made(point, path, stored, command)
    print(f"{point}: synth {target}: running Yosys (minutes; {shown(path.parent)}/yosys.log)", flush=True)
    try:
        return synth_cli.synthesize_design(d, target)
    except (YosysError, StatError, OSError) as exc:
        raise _failed(point, path.parent, command, exc) from None


def timing_doc(point: str, d: Design, setting: str, knob: str) -> dict[str, Any]:
    """The cached place-and-route result on make timing's default part, seed and constraint
    (HW=1: made when absent); HardwareError with the one line to print when there is none."""
    try:
        plan = timing_cli.plan_design(d)
    except (RtlError, WrapperError) as exc:
        raise HardwareError(f"{point}: make timing {knob}: {exc}") from None
    path = plan.run_dir / timing_cli.RESULT
    stored = _stored(point, path, "timing result", setting, "placing and routing")
    if stored is not None and stored.get("key") == plan.key:
        print(f"{point}: timing: cached ({shown(path)})", flush=True)
        return stored
    command = f"make timing {knob}"
    if setting != "1":
        raise _not_made(point, path, stored, command)
    print(f"{point}: timing: nextpnr on {DEFAULT_PART} (minutes; {shown(plan.run_dir)})", flush=True)
    try:
        return timing_cli.run(plan)
    except (YosysError, NextpnrError, ReportError, OSError) as exc:
        raise _failed(point, plan.run_dir, command, exc) from None


def knob_of(arg: str, foreign: bool) -> str:
    """The make knob that names a design: CONFIG=<shipped name or JSON path>, or DUT=NAME."""
    if foreign:
        return f"DUT={arg}"
    return f"CONFIG={shown(Path(arg)) if Path(arg).suffix == '.json' else arg}"


# --- one point -----------------------------------------------------------------------------

def measure(p: Point, d: Design, setting: str, say: Callable[[str], None]) -> None:
    """Fill in a point's resources, verdicts and fmax (what cannot be had goes to p.missing)."""
    knob = knob_of(p.config, d.foreign)
    for target, part_key in (XILINX, ECP5):
        part = PARTS[part_key]
        try:
            doc = synth_doc(p.name, d, target, setting, knob)
            path = synth_cli.out_dir() / f"{d.label}-{target}" / "resources.json"
            try:
                figs, _ = figures_of(doc, part)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise HardwareError(f"{p.name}: {shown(path)}: malformed synthesis result "
                                    f"({type(exc).__name__}: {exc})") from None
        except HardwareError as exc:
            p.missing.append(str(exc))
            say(str(exc))
            continue
        p.synth[target] = figs
        p.fits[part_key] = figs["fits"]
    ecp5 = p.synth.get("ecp5")
    if ecp5 is None:
        p.no_fmax = "no fmax: no ECP5 synthesis result to judge the fit by"
        return
    if not ecp5["fits"]:
        p.no_fmax = f"no fmax: {no_fit_reason('ecp5', PARTS[ECP5[1]], ecp5)}"
        return
    try:
        doc = timing_doc(p.name, d, setting, knob)
        try:
            p.fmax_mhz = float(doc["fmax_mhz"])
        except (KeyError, TypeError, ValueError) as exc:
            path = timing_cli.plan_design(d).run_dir / timing_cli.RESULT
            raise HardwareError(f"{p.name}: {shown(path)}: malformed timing result "
                                f"({type(exc).__name__}: {exc})") from None
    except HardwareError as exc:
        p.missing.append(str(exc))
        p.no_fmax = f"no fmax: {exc}"
        say(str(exc))


@dataclass
class Run:
    """What the simulation part gave: configurations and cycles of one pass at one vt."""

    scale: str
    vt: int
    layers: list[str]
    #: name -> (configuration argument, pass cycles for BATCH images or None)
    configs: dict[str, tuple[str, int | None]]


def collect(run: Run, setting: str, upstream: str = UPSTREAM, upstream_report: Path | None = None,
            say: Callable[[str], None] = print) -> dict[str, Any]:
    """The hardware section's document: every point's figures, upstream's, what is missing."""
    if setting == "0":
        return {"setting": "0", "note": "hardware figures were not run (HW=0): no synthesis, fmax or "
                "time per pass; `make workloads CONFIG=designs` without HW=0 adds them", "points": []}
    points: list[Point] = []
    n = len(run.configs) + 1
    for i, (name, (arg, cycles)) in enumerate(run.configs.items(), 1):
        say(f"hardware {i}/{n}: {name} (synthesis on xilinx and ecp5, fmax where it fits the "
            f"LFE5UM5G-85F; {'cached results only' if setting == 'cached' else 'cached results reused'})")
        try:
            cfg = load_config(arg)
            d = design("vta", arg, "default", None)
        except (ConfigError, ProfileError, DesignError) as exc:
            line = f"{name}: {arg}: {exc}"
            say(line)
            points.append(Point(name, arg, 0, 0, 0, missing=[line], no_fmax=f"no fmax: {line}"))
            continue
        p = Point(name, arg, cfg.block_in, cfg.batch, macs_per_cycle(cfg),
                  pass_macs(run.scale, cfg.block_in, cfg.block_out, run.layers),
                  cycles / cfg.batch if cycles else None)
        if p.cycles_per_image is None:
            p.missing.append(f"{name}: no ResNet-18 pass (not every layer ran and passed with vt={run.vt})")
        measure(p, d, setting, say)
        points.append(p)
    points.append(upstream_point(run, setting, upstream, upstream_report, say, n))
    missing = [m for p in points for m in p.missing]
    return {"setting": setting, "vt": run.vt, "scale": run.scale, "part": DEFAULT_PART,
            "points": [p.doc() for p in points], "missing": missing}


def upstream_point(run: Run, setting: str, upstream: str, report: Path | None, say: Callable[[str], None],
                   n: int) -> Point:
    """Upstream's point: its resources, and cycles from its workloads report when present."""
    say(f"hardware {n}/{n}: upstream ({upstream})")
    try:
        d = design(upstream, None, "default", None)
        cfg = load_config(d.config)
    except (ConfigError, ProfileError, DesignError) as exc:
        line = f"upstream: {exc}: upstream's point is left out"
        say(line)
        return Point("upstream", upstream, 0, 0, 0, missing=[line], no_fmax="no fmax: no netlist",
                     upstream=True)
    p = Point("upstream", upstream, cfg.block_in, cfg.batch, macs_per_cycle(cfg),
              pass_macs(run.scale, cfg.block_in, cfg.block_out, run.layers), upstream=True)
    if report is not None:
        p.cycles_per_image = upstream_cycles(report, run, cfg.batch, p)
    measure(p, d, setting, say)
    return p


def upstream_cycles(report: Path, run: Run, batch: int, p: Point) -> float | None:
    """Cycles of upstream's pass per image from its `make workloads` report.json (same vt and
    scale), or None with the reason in p.missing."""
    if not report.is_file():
        p.missing.append(f"upstream: {shown(report)}: absent: no cycles (make workloads DUT={UPSTREAM})")
        return None
    try:
        data = json.loads(report.read_text())
        if data.get("scale") != run.scale:
            raise ValueError(f"scale {data.get('scale')}, this run's is {run.scale}")
        cycles = [c["network_cycles"].get(str(run.vt)) for c in data["configs"].values()]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        p.missing.append(f"upstream: {shown(report)}: unusable ({exc}): no cycles")
        return None
    if not cycles or cycles[0] is None:
        p.missing.append(f"upstream: {shown(report)}: no ResNet-18 pass with vt={run.vt}: no cycles")
        return None
    return int(cycles[0]) / batch


# --- the report --------------------------------------------------------------------------------

def _num(x: float | None, fmt: str = ",.0f") -> str:
    return "-" if x is None else format(x, fmt)


def section(hw: dict[str, Any]) -> list[str]:
    """The report's hardware section (markdown lines)."""
    md = [SECTION, ""]
    if hw["setting"] == "0":
        return md + [f"Hardware figures were not run (HW=0): {hw['note'].split(': ', 1)[1]}.", ""]
    md += [f"Per design point (vt={hw['vt']}): resources from `make synth` (Yosys's counts; Xilinx LUT "
           "includes the LUTs used as distributed RAM, block RAM in RAMB36 units), the verdicts of "
           "tb/synth/parts.py (Zynq-7020: 80 % LUT, 80 % FF, 90 % RAMB36, 100 % DSP; LFE5UM5G-85F: "
           f"all of it), fmax from `make timing` on the {hw['part']} (seed 1, 100 MHz constraint) only "
           "where the ECP5 counts fit, and one ResNet-18 pass per image: time = cycles / fmax, GOPS = "
           "2 x the pass's MACs / time, peak = 2 x MACs/cycle x fmax."
           + (" Only cached results were used (HW=cached)." if hw["setting"] == "cached" else ""), "",
           "| configuration | BLOCK | BATCH | MACs/cycle | LUT | FF | RAMB36 | DSP48E1 | fits xc7z020 | "
           "LUT4 | DP16KD | MULT18X18D | fits LFE5UM5G-85F | fmax MHz | cycles / image | ms / image | "
           "GOPS | peak GOPS | of peak |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in hw["points"]:
        x, e = p["synth"].get("xilinx"), p["synth"].get("ecp5")
        xs = [_used(x, r) for r in ("lut", "ff", "bram", "dsp")]
        es = [_used(e, r) for r in ("lut", "bram", "dsp")]
        fit = [_fit(p["fits"], k) for k in ("xc7z020", "LFE5UM5G-85F")]
        share = p["gops"] / p["peak_gops"] if p["gops"] is not None and p["peak_gops"] else None
        shape = [str(p[k] or "-") for k in ("block", "batch", "macs_per_cycle")]
        fmax = _num(p["fmax_mhz"], ".2f") if p["fmax_mhz"] is not None else p["no_fmax"] or "-"
        rates = [fmax, _num(p["cycles_per_image"]), _num(p["time_ms"], ".2f"),
                 _num(p["gops"], ".2f"), _num(p["peak_gops"], ".2f"), _num(share, ".3f")]
        md.append("| " + " | ".join([p["name"], *shape, *xs, fit[0], *es, fit[1], *rates]) + " |")
    if hw["missing"]:
        md += ["", "Missing figures (each line: the design point, the file, what to run):", ""]
        md += [f"- {m}" for m in hw["missing"]]
    md += ["", f"![Pareto]({PLOT})", "", caption(hw), ""]
    return md


def _used(figs: dict[str, Any] | None, resource: str) -> str:
    if figs is None:
        return "-"
    used = figs["used"][resource]
    return _num(used, ",.1f" if used % 1 else ",.0f")


def _fit(fits: dict[str, bool], part: str) -> str:
    return "-" if part not in fits else "yes" if fits[part] else "no"


def caption(hw: dict[str, Any]) -> str:
    """What the plot shows, and which points it leaves out of which panels."""
    timed = [p["name"] for p in hw["points"] if p["time_ms"] is not None and p["synth"].get("xilinx")]
    cyc = [p["name"] for p in hw["points"] if p["cycles_per_image"] is not None and p["synth"].get("xilinx")]
    out = [p["name"] for p in hw["points"] if p["name"] not in cyc]
    return ("Pareto plot (pareto.png): top, ResNet-18 time per image (ms, cycles / fmax) against Xilinx "
            "LUTs and DSP48E1s, only points with an fmax: "
            f"{', '.join(timed) or 'none'}; bottom, the same against cycles per image (time at an equal "
            "clock), every point with cycles and resources: " f"{', '.join(cyc) or 'none'}. The Pareto "
            "front (no other point both smaller and faster) is joined and ringed."
            + (f" Not plotted (no resources or no cycles): {', '.join(out)}." if out else ""))


def _crowd(pts: dict[str, tuple[float, float]], name: str) -> int:
    """How many points listed before NAME sit within 3 % of the axes' spans of it: its label
    goes that many lines lower, so that two design points of nearly equal figures (default and
    small-buffers share their DSPs and differ by 0.4 % in LUTs) keep readable labels."""
    xs = [x for x, _ in pts.values()]
    ys = [y for _, y in pts.values()]
    dx = (max(xs) - min(xs)) * 0.03 or 1.0
    dy = (max(ys) - min(ys)) * 0.03 or 1.0
    x, y = pts[name]
    before = list(pts)[:list(pts).index(name)]
    return sum(abs(pts[o][0] - x) <= dx and abs(pts[o][1] - y) <= dy for o in before)


def plot(path: Path, hw: dict[str, Any]) -> None:
    """Two pairs of panels: time per image and cycles per image against LUTs and DSPs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    for row, (ykey, ylabel) in enumerate((("time_ms", "ResNet-18 ms per image (cycles / fmax)"),
                                          ("cycles_per_image", "ResNet-18 cycles per image"))):
        for col, (res, xlabel) in enumerate((("lut", "Xilinx 7-series LUTs (with LUT-RAM)"),
                                             ("dsp", "DSP48E1"))):
            ax = axes[row][col]
            pts = {p["name"]: (float(p["synth"]["xilinx"]["used"][res]), float(p[ykey]))
                   for p in hw["points"] if p[ykey] is not None and p["synth"].get("xilinx")}
            front = pareto(pts)
            for name, (x, y) in pts.items():
                up = name == "upstream"
                ax.plot(x, y, "^" if up else "o", color="tab:red" if up else "tab:blue")
                if name in front:
                    ax.plot(x, y, "o", markersize=13, fillstyle="none", color="tab:green")
                ax.annotate(name, (x, y), fontsize=8, xytext=(4, 4 - 10 * _crowd(pts, name)),
                            textcoords="offset points")
            line = sorted(pts[n] for n in front)
            if len(line) > 1:
                ax.step([x for x, _ in line], [y for _, y in line], where="post", color="tab:green",
                        alpha=0.6)
            if not pts:
                ax.text(0.5, 0.5, "no point has these figures", ha="center", transform=ax.transAxes)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            ax.grid(True, alpha=0.3)
    fig.suptitle("Design space: time against area (ringed: Pareto front; triangle: upstream)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write(out: Path, hw: dict[str, Any]) -> list[Path]:
    """pareto.png (unless HW=0); the section's lines go into report.md by the caller."""
    if hw["setting"] == "0":
        (out / PLOT).unlink(missing_ok=True)
        return []
    plot(out / PLOT, hw)
    return [out / PLOT]


# --- the command ---------------------------------------------------------------------------------

def run_of(report: dict[str, Any]) -> Run:
    """The simulation part of a finished `make workloads` from its report.json."""
    cases = report["cases"]
    vt = max(int(c["vt"]) for c in cases)
    layers = sorted({c["layer"] for c in cases})
    configs = {}
    for name, c in report["configs"].items():
        # a report made before "argument" was written names a configuration only
        arg = c.get("argument") or design_points().get(name, name)
        if arg not in SHIPPED_CONFIGS:
            arg = str(ROOT / arg) if not Path(arg).is_absolute() else arg
        cycles = c["network_cycles"].get(str(vt))
        configs[name] = (arg, int(cycles) if cycles else None)
    return Run(report["scale"], vt, layers, configs)


def argument_of(arg: str) -> str:
    """How report.json names a configuration: a shipped name as is, a JSON file by its path
    relative to the checkout when inside it (a design point's name may also be a shipped
    configuration's: batch2)."""
    return arg if arg in SHIPPED_CONFIGS else shown(Path(arg).resolve())


def default_upstream_report(out: Path) -> Path:
    """`make workloads DUT=upstream-chisel`'s report.json beside OUT."""
    return out.resolve().parent / UPSTREAM_WORKLOADS / "report.json"


def rewrite(out: Path, hw: dict[str, Any]) -> list[Path]:
    """Replace the hardware section of OUT/report.md and "hardware" of report.json."""
    md_path, json_path = out / "report.md", out / "report.json"
    text = md_path.read_text()
    head = text.split(SECTION, 1)[0].rstrip("\n")
    md_path.write_text(head + "\n\n" + "\n".join(section(hw)))
    data = json.loads(json_path.read_text())
    data["hardware"] = hw
    json_path.write_text(json.dumps(data, indent=1))
    return [md_path, json_path, *write(out, hw)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tb.workloads.hardware",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a `make workloads CONFIG=designs` output directory")
    parser.add_argument("--hw", default="1", choices=SETTINGS[1:],
                        help="1: make what the caches lack (default); cached: only what they hold")
    parser.add_argument("--upstream", default=UPSTREAM, help="upstream's DUT profile (name or YAML path)")
    parser.add_argument("--upstream-report", type=Path,
                        help=f"its workloads report.json (default: {UPSTREAM_WORKLOADS}/report.json "
                             "beside OUT)")
    args = parser.parse_args(argv)
    path = args.out / "report.json"
    try:
        report = json.loads(path.read_text())
        run = run_of(report)
        if len(run.configs) < 2:
            raise ValueError("one configuration: no design space (run make workloads CONFIG=designs)")
    except (OSError, ValueError, KeyError, TypeError, ConfigError) as exc:
        print(f"python -m tb.workloads.hardware: {path}: {exc}", file=sys.stderr)
        return 2
    hw = collect(run, args.hw, args.upstream, args.upstream_report or default_upstream_report(args.out))
    paths = rewrite(args.out, hw)
    print(f"hardware figures of {len(hw['points'])} point(s), {len(hw['missing'])} missing; "
          f"report: {', '.join(str(p) for p in paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
