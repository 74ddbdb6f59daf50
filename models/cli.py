"""Command line of the golden model: ``python -m models COMMAND ...``.

Each command is a thin shell over one module, so that the testbench and the tests use
the same functions. Every user error (bad configuration, manifest, assembly, program)
is printed as one ``error:`` line naming the file, field or instruction, with exit
code 2; a result mismatch exits 1.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

from models.config import ConfigError, VtaConfig, load_config
from models.dram import DramError
from models.isa import EncodingError
from models.vector import VectorError, find_vectors, load_vector

EXIT_MISMATCH = 1
EXIT_USAGE = 2


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None


class UsageError(ValueError):
    """A command-line argument that cannot be used (missing file, wrong kind of path)."""


def cmd_asm(args: argparse.Namespace) -> int:
    from models.asm import assemble, assemble_json
    cfg = load_config(args.config)
    lines = _read(args.source).decode("utf-8", errors="replace").splitlines()
    data = (assemble_json if args.json else assemble)(cfg, lines, args.source, args.uop)
    Path(args.output).write_bytes(data)
    return 0


def _program_bytes(path: str, cfg_arg: str | None) -> tuple[VtaConfig, bytes]:
    """A raw binary, or the instruction stream of a vector directory."""
    if Path(path).is_dir():
        vector = load_vector(path)
        cfg = load_config(cfg_arg) if cfg_arg else vector.config
        dram = vector.dram()
        return cfg, dram.read_bytes(vector.insn_addr, 16 * vector.insn_count)
    return load_config(cfg_arg), _read(path)


def cmd_disasm(args: argparse.Namespace) -> int:
    from models.asm import disasm_bytes, to_json_lines
    cfg, data = _program_bytes(args.file, args.config)
    lines = (to_json_lines if args.json else disasm_bytes)(cfg, data, args.uop)
    print("\n".join(lines))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from models.compare import compare_vector
    from models.executor import run_vector
    vector = load_vector(args.vector)
    result = run_vector(vector, schedule=args.schedule)
    if vector.expect is None:
        print(f"{vector.path}: executed {len(result.insns)} instructions; the manifest has no "
              f"'expect', so the model's output is the reference (nothing to compare)")
        return 0
    report = compare_vector(vector, result.dram)
    print(f"{vector.path}: {report.format()}")
    return 0 if report.ok else EXIT_MISMATCH


def cmd_check(args: argparse.Namespace) -> int:
    from models.checker import check_vector
    report = check_vector(load_vector(args.vector), cmd_queue_depth=args.cmd_queue_depth,
                          token_queue_depth=args.token_queue_depth)
    print(f"{args.vector}: {report.format()}")
    return 0 if report.ok else EXIT_MISMATCH


def cmd_gen(args: argparse.Namespace) -> int:
    from models.gen import generate_many
    cfg = load_config(args.config)
    paths = generate_many(args.seed, cfg, args.count, Path(args.out))
    for path in paths:
        print(path)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from models.stats import collect, format_stats, missing
    vectors = [load_vector(d) for d in find_vectors(args.dirs)]
    hist = collect(vectors)
    print(format_stats(hist))
    gaps = missing(hist)
    print(f"\n{len(vectors)} vectors; required items never seen: {', '.join(gaps) if gaps else 'none'}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from models.bench import print_bench
    print_bench()
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    for key, value in {**cfg.values, **cfg.derived()}.items():
        print(f"{key:20s} {value}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m models", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    cfg_help = "configuration: a shipped name (default, small, batch2) or a JSON file"
    p = add("asm", cmd_asm, "assemble text (or --json lines) into a binary")
    p.add_argument("source")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--json", action="store_true", help="input is one JSON object per line")
    p.add_argument("--uop", action="store_true", help="micro-ops instead of instructions")
    p.add_argument("--config", help=cfg_help)
    p = add("disasm", cmd_disasm, "disassemble a binary or a vector's program")
    p.add_argument("file", help="binary file, or a vector directory")
    p.add_argument("--json", action="store_true", help="one JSON object per instruction")
    p.add_argument("--uop", action="store_true", help="micro-ops instead of instructions")
    p.add_argument("--config", help=cfg_help + " (default: the vector's, else default)")
    p = add("run", cmd_run, "execute a vector and compare DRAM with its expect")
    p.add_argument("vector")
    p.add_argument("--schedule", type=int, default=None,
                   help="seed of a random token-respecting interleaving (default: program order)")
    p = add("check", cmd_check, "check a vector's program against the rules of spec section 4")
    p.add_argument("vector")
    p.add_argument("--cmd-queue-depth", type=int, default=None)
    p.add_argument("--token-queue-depth", type=int, default=None)
    p = add("gen", cmd_gen, "write random well-formed vectors (program k uses seed SEED+k)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--config", help=cfg_help)
    p.add_argument("--out", required=True)
    p = add("stats", cmd_stats, "histogram of instruction forms over vectors")
    p.add_argument("dirs", nargs="+")
    add("bench", cmd_bench, "executor throughput in micro-ops per second")
    p = add("config", cmd_config, "print a configuration with every derived value")
    p.add_argument("config", nargs="?")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from models.asm import AsmError
    from models.executor import ProgramError
    known = (ConfigError, VectorError, EncodingError, AsmError, DramError, UsageError, ProgramError)
    try:
        return args.func(args)
    except known as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
