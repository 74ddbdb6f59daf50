"""Run test vectors on the VTA RTL.

    python -m tb.sim --sim icarus|verilator [--config NAME_OR_JSON] VECTOR_DIR...
    python -m tb.sim [--sim S] [--config C] [--test SUBSTR] [--seed N] [--count K]

A VECTOR_DIR (or --vector DIR) is a vector (a directory with manifest.json) or a
directory holding vectors (searched recursively). Vectors are grouped by configuration;
each group is built once per simulator (reused from build/sim/ when unchanged) and run in
one simulator process. --config forces one configuration: a named vector whose manifest
has another one fails.

Without vectors (as `make sim` runs it): the directed vectors of vectors/ whose
configuration is --config (default: the default configuration), plus --count (default 4)
random programs from models.gen with seeds --seed.. on that configuration. --test keeps
only vectors whose name contains the string.

Prints a summary table and, for each failure, the command that reproduces it; the exit
status is 1 if any vector failed, 2 on a usage or build error.
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

from models.config import ConfigError, VtaConfig, load_config
from models.vector import VectorError, load_vector
from tb.runner import ROOT, SIMS, config_key, find_vectors, run_vectors


def default_vectors(cfg: VtaConfig, seed: int, count: int) -> list[Path]:
    """Directed vectors of cfg plus `count` fresh random programs (models.gen)."""
    dirs = [d for d in find_vectors([ROOT / "vectors"]) if load_vector(d).config == cfg]
    if count > 0:
        from models.gen import generate_many
        out = ROOT / "build" / "sim" / "random" / f"seed{seed}-{config_key(cfg)}"
        if out.exists():
            shutil.rmtree(out)
        dirs += generate_many(seed, cfg, count, out)
    return dirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tb.sim", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", choices=SIMS, action="append",
                    help="simulator (repeat for both; default icarus)")
    ap.add_argument("--config", help="configuration name (models/configs) or JSON file")
    ap.add_argument("--max-cycles", type=int, default=None, help="cycle bound per vector")
    ap.add_argument("--waves", action="store_true", help="record waveforms")
    ap.add_argument("--stall", metavar="P[:SEED]",
                    help="random pauses with probability P on every AXI channel of the memory")
    ap.add_argument("-v", "--verbose", action="store_true", help="show build and simulator output")
    ap.add_argument("--vector", action="append", default=[], metavar="DIR",
                    help="a vector directory (same as a positional VECTOR_DIR)")
    ap.add_argument("--test", help="only vectors whose name contains this string")
    ap.add_argument("--seed", type=int, default=1, help="first random seed (default mode)")
    ap.add_argument("--count", type=int, default=4, help="random programs (default mode)")
    ap.add_argument("vectors", nargs="*", metavar="VECTOR_DIR")
    args = ap.parse_args(argv)
    sims = args.sim or ["icarus"]
    named = args.vectors + args.vector

    try:
        forced = load_config(args.config) if args.config else None
        if named:
            dirs = find_vectors(named)
        else:
            dirs = default_vectors(forced or VtaConfig(), args.seed, args.count)
            forced = forced or VtaConfig()
    except (ConfigError, FileNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.test:
        dirs = [d for d in dirs if args.test in d.name]
    if not dirs:
        print("error: no vectors found", file=sys.stderr)
        return 2

    results: list[dict] = []
    groups: dict[VtaConfig, list[Path]] = defaultdict(list)
    for d in dirs:
        try:
            cfg = load_vector(d).config
        except VectorError as exc:
            results += [{"vector": d.name, "path": str(d.resolve()), "sim": s, "passed": False,
                         "cycles": None, "wall": 0.0, "message": str(exc)} for s in sims]
            continue
        if forced is not None and cfg != forced:
            results += [{"vector": d.name, "path": str(d.resolve()), "sim": s, "passed": False,
                         "cycles": None, "wall": 0.0,
                         "message": f"vector configuration {cfg.overrides()} differs from "
                                    f"--config {forced.overrides()}"} for s in sims]
            continue
        groups[cfg].append(d)

    for sim in sims:
        for cfg, vecs in groups.items():
            t0 = time.perf_counter()
            try:
                results += run_vectors(sim, cfg, vecs, max_cycles=args.max_cycles,
                                       waves=args.waves, quiet=not args.verbose,
                                       stall=args.stall)
            except RuntimeError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            print(f"[{sim}] configuration {cfg.overrides() or 'default'}: {len(vecs)} vector(s) "
                  f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)

    order = {str(d.resolve()): n for n, d in enumerate(dirs)}
    results.sort(key=lambda r: (order.get(r["path"], 0), r["sim"]))
    width = max(len(r["vector"]) for r in results)
    print(f"{'vector':<{width}}  {'sim':<9}  {'result':<6}  {'cycles':>9}  {'wall s':>7}")
    for r in results:
        cyc = "-" if r["cycles"] is None else str(r["cycles"])
        print(f"{r['vector']:<{width}}  {r['sim']:<9}  {'PASS' if r['passed'] else 'FAIL':<6}  "
              f"{cyc:>9}  {r.get('wall', 0.0):7.2f}")
    failed = [r for r in results if not r["passed"]]
    for r in failed:
        cmd = ["python", "-m", "tb.sim", "--sim", r["sim"]]
        if args.config:
            cmd += ["--config", args.config]
        if args.stall:
            cmd += ["--stall", args.stall]
        cmd.append(r["path"])
        print(f"\nFAIL {r['vector']} [{r['sim']}]: {r['message']}\n  reproduce: {shlex.join(cmd)}")
    print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
