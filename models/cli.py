"""Command line of the golden model: ``python -m models COMMAND ...``.

Each command is a thin shell over one module, so that the testbench and the tests use
the same functions. Every user error (bad configuration, manifest, assembly, program,
argument or path) is printed as one ``error:`` line naming the file, field or instruction,
with exit code 2; a result mismatch or a checker finding exits 1.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from models.argtypes import OneLineParser, positive_int, seed
from models.config import RANGES, ConfigError, VtaConfig, text_line
from models.dram import DramError
from models.genlib.presets import PRESETS
from models.isa import EncodingError
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from models.vector import Vector, VectorError, find_vectors, load_vector

if TYPE_CHECKING:
    from models.checker import CheckReport

EXIT_MISMATCH = 1
EXIT_USAGE = 2
EXIT_PIPE = 128 + 13  # SIGPIPE


class UsageError(ValueError):
    """A command-line argument that cannot be used (missing file, wrong kind of path)."""


# --- paths --------------------------------------------------------------------------------
def _read(path: str) -> bytes:
    """The bytes of a file argument; a directory or an unreadable path is a UsageError."""
    if Path(path).is_dir():
        raise UsageError(f"{path}: is a directory, expected a file")
    if Path(path).exists() and not Path(path).is_file():
        raise UsageError(f"{path}: not a regular file (a device, FIFO or socket would never end "
                         f"or block)")
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _read_text(path: str) -> list[str]:
    """The lines of a UTF-8 text file argument."""
    data = _read(path)
    try:
        return data.decode("utf-8-sig").splitlines()  # a byte order mark is not text
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {data[exc.start]:#04x} on line "
                         f"{text_line(data, exc.start)})") from None


def _write(path: str, data: bytes, option: str) -> None:
    """Write an output file; a directory, or a path that cannot be created, is a UsageError."""
    if Path(path).is_dir():
        raise UsageError(f"{option} {path}: is a directory, expected a file path")
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write: {exc.strerror or exc}") from None


def _out_dir(path: str, option: str) -> Path:
    """An output directory, created if missing; a regular file there is a UsageError."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{option} {path}: not a directory (an output directory is expected)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot create the directory: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: the directory is not writable")
    return out


# --- commands -----------------------------------------------------------------------------
def cmd_asm(args: argparse.Namespace) -> int:
    from models.asm import assemble, assemble_json
    cfg = load_config(args.config)
    lines = _read_text(args.source)
    data = (assemble_json if args.json else assemble)(cfg, lines, args.source, args.uop)
    if Path(args.output).exists() and os.path.samefile(args.source, args.output):
        raise UsageError(f"-o {args.output}: is the source file itself; writing the binary there "
                         f"would destroy the source")
    _write(args.output, data, "-o")
    return 0


def _program_bytes(path: str, cfg_arg: str | None, uop: bool) -> tuple[VtaConfig, bytes]:
    """A raw binary, or the instruction stream of a vector directory (in the vector's own
    configuration: a --config naming another one is an error, not a different decoding)."""
    if not Path(path).is_dir():
        return load_config(cfg_arg), _read(path)
    if not (Path(path) / "manifest.json").exists():
        raise UsageError(f"{path}: a directory but not a vector (no manifest.json); disasm takes "
                         f"a binary file or a vector directory")
    if uop:
        raise UsageError(f"{path}: --uop disassembles a binary file of micro-ops; a vector's "
                         f"program is instructions (its micro-ops are wherever its LOAD UOPs read)")
    vector = load_vector(path)
    if cfg_arg is not None:
        cfg = load_config(cfg_arg)
        if cfg != vector.config:
            raise UsageError(f"--config {cfg_arg} ({_describe(cfg)}) differs from the "
                             f"configuration of vector {path} ({_describe(vector.config)}); "
                             f"a vector is disassembled with its own configuration (omit --config)")
    dram = vector.dram()
    return vector.config, dram.read_bytes(vector.insn_addr, 16 * vector.insn_count)


def _describe(cfg: VtaConfig) -> str:
    overrides = cfg.overrides()
    return ", ".join(f"{k}={v}" for k, v in overrides.items()) if overrides else "the defaults"


def cmd_disasm(args: argparse.Namespace) -> int:
    from models.asm import disasm_bytes, to_json_lines
    cfg, data = _program_bytes(args.file, args.config, args.uop)
    lines = (to_json_lines if args.json else disasm_bytes)(cfg, data, args.uop)
    if lines:
        print("\n".join(lines))
    return 0


def _note_reads_past_images(vector: Vector, report: CheckReport) -> None:
    """Name on stderr each LOAD that runs past the end of an init image: legal (those bytes
    read as 0), but also what a truncated file looks like, so the user hears of it without
    a change of verdict or exit status."""
    from models.checker import reads_past_images
    for note in reads_past_images(vector, report):
        print(f"note: {note}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    from models.checker import check_vector
    from models.compare import compare_vector
    from models.executor import run_vector
    vector = load_vector(args.vector)
    check = check_vector(vector)  # rejects an instruction stream beyond the init images
    _note_reads_past_images(vector, check)
    if not check.ok and not args.unchecked:
        print(f"{vector.path}: refusing to run an ill-formed program (it has no single defined "
              f"result; --unchecked runs it anyway): {check.format()}")
        return EXIT_MISMATCH
    if not check.ok:
        print(f"{vector.path}: running unchecked: the checker's {len(check.findings)} finding(s) are "
              f"ignored, so what follows is only one possible result of an ill-formed program",
              flush=True)
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
    vector = load_vector(args.vector)
    report = check_vector(vector, cmd_queue_depth=args.cmd_queue_depth,
                          token_queue_depth=args.token_queue_depth)
    _note_reads_past_images(vector, report)
    print(f"{args.vector}: {report.format()}")
    return 0 if report.ok else EXIT_MISMATCH


def cmd_gen(args: argparse.Namespace) -> int:
    from models.gen import dir_name, generate
    from models.genlib.presets import preset_knobs
    from models.vector import save_vector
    cfg = load_config(args.config)
    out = _out_dir(args.out, "--out")
    for k in range(args.count):  # as generate_many, printing each path once it is written
        knobs = preset_knobs(args.preset, args.seed + k)
        try:
            path = save_vector(generate(args.seed + k, cfg, knobs), out / dir_name(args.seed, k))
        except OSError as exc:
            raise UsageError(f"--out {args.out}: cannot write {exc.filename or ''}: "
                             f"{exc.strerror or exc}") from None
        print(path, flush=True)
    return 0


def cmd_workload(args: argparse.Namespace) -> int:
    from models.vector import save_vector
    from models.workloads import WorkloadError, workload
    from models.workloads.layers import select
    cfg = load_config(args.config)
    out = _out_dir(args.out, "--out")
    try:
        names = select(args.name)
        for name in names:
            w = workload(name, args.scale, cfg, args.vt)
            path = save_vector(w.vector, out / f"{name}-{args.scale}-vt{args.vt}")
            print(f"{path}: {w.layer.describe()}, {w.vector.insn_count} instructions", flush=True)
    except WorkloadError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write {exc.filename or ''}: "
                         f"{exc.strerror or exc}") from None
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from models.stats import WIDE, collect, format_stats, missing
    dirs = {d.resolve(): d for d in find_vectors(args.dirs)}  # a vector named twice counts once
    vectors = [load_vector(d) for d in dirs.values()]
    hist = collect(vectors)
    print(format_stats(hist))
    gaps = missing(hist)
    print(f"\n{len(vectors)} vectors; required items never seen: {', '.join(gaps) if gaps else 'none'}")
    wide = [item for item in WIDE if not hist.get(item)]
    print(f"wide forms (gen --preset) never seen: {', '.join(wide) if wide else 'none'}")
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


# --- arguments ------------------------------------------------------------------------------
def _depth(key: str) -> Callable[[str], int]:
    """A queue depth override, within the range a configuration accepts for ``key``."""
    lo, hi, why = RANGES[key]

    def parse(text: str) -> int:
        value = positive_int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is out of range [{lo}, {hi}]: {why}")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m models", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    cfg_help = f"configuration: a shipped name ({', '.join(SHIPPED_CONFIGS)}) or a JSON file"
    p = add("asm", cmd_asm, "assemble text (or --json lines) into a binary")
    p.add_argument("source")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--json", action="store_true", help="input is one JSON object per line")
    p.add_argument("--uop", action="store_true", help="micro-ops instead of instructions")
    p.add_argument("--config", help=cfg_help)
    p = add("disasm", cmd_disasm, "disassemble a binary or a vector's program")
    p.add_argument("file", help="binary file, or a vector directory")
    p.add_argument("--json", action="store_true", help="one JSON object per instruction")
    p.add_argument("--uop", action="store_true", help="micro-ops instead of instructions (binary files)")
    p.add_argument("--config", help=cfg_help + " (default: the vector's, else default; for a vector "
                                               "only its own is accepted)")
    p = add("run", cmd_run, "execute a well-formed vector and compare DRAM with its expect")
    p.add_argument("vector")
    p.add_argument("--schedule", type=seed, default=None,
                   help="seed of a random token-respecting interleaving (default: program order)")
    p.add_argument("--unchecked", action="store_true",
                   help="run even if the checker finds the program ill-formed (the result is then "
                        "only one of its possible results)")
    p = add("check", cmd_check, "check a vector's program against the rules of spec section 4")
    p.add_argument("vector")
    p.add_argument("--cmd-queue-depth", type=_depth("CMD_QUEUE_DEPTH"), default=None)
    p.add_argument("--token-queue-depth", type=_depth("TOKEN_QUEUE_DEPTH"), default=None)
    p = add("gen", cmd_gen, "write random well-formed vectors (program k uses seed SEED+k)")
    p.add_argument("--seed", type=seed, required=True)
    p.add_argument("--count", type=positive_int, default=1)
    p.add_argument("--config", help=cfg_help)
    p.add_argument("--preset", choices=PRESETS, default="default",
                   help="named knob set (models/genlib/presets.py): " + "; ".join(
                       f"{p.name}: {p.reaches}" for p in PRESETS.values()))
    p.add_argument("--out", required=True)
    p = add("workload", cmd_workload, "write ResNet-18 layers as vectors, expect from the numpy reference")
    p.add_argument("name", help="C1..C11, dense, comma-separated, or all")
    p.add_argument("--config", help=cfg_help)
    p.add_argument("--vt", type=int, choices=(1, 2), default=2, help="virtual threads (default 2)")
    p.add_argument("--scale", choices=("full", "small"), default="full")
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
        status = args.func(args)
        sys.stdout.flush()  # so that a failing write is reported here, not at exit
        return status
    except known as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, with the status a program killed
        # by SIGPIPE has, since the verdict (0 or 1) was not reached. Python would otherwise
        # print a second BrokenPipeError when it flushes stdout at exit.
        _drop_stdout()
        return EXIT_PIPE
    except OSError as exc:  # the environment, not the input: a full disk, a vanished file
        if exc.filename is None:
            _drop_stdout()
            print(f"error: cannot write to standard output: {exc.strerror or exc}", file=sys.stderr)
        else:
            print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


def _drop_stdout() -> None:
    """Send what is left in stdout's buffer to /dev/null, so the exit flush cannot fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
