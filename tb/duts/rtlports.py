"""The port list of a design's top module, as slang (pyslang) elaborates it.

A profile names ports of a foreign top; checking those names against a real elaboration
(not a text search) catches a misspelt or missing port before any simulator runs, and gives
each port's direction and width under the parameters the wrapper will pass.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyslang
from pyslang import ast, syntax


@dataclass(frozen=True)
class Port:
    """One port of the top: ``output`` is True when the design drives it."""

    name: str
    output: bool
    width: int


class RtlError(ValueError):
    """The design cannot be read or has no such top; ``field`` is the profile key at fault
    ("sources" or "top")."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def top_ports(sources: list[Path], include_dirs: list[Path], top: str,
              parameters: dict[str, int]) -> dict[str, Port]:
    """Every port of ``top`` by name, in declaration order, with ``parameters`` overriding
    the top's parameters."""
    manager = pyslang.SourceManager()
    for directory in include_dirs:
        manager.addUserDirectories(str(directory))
    options = ast.CompilationOptions()
    options.topModules = {top}
    options.paramOverrides = [f"{k}={v}" for k, v in sorted(parameters.items())]
    comp = ast.Compilation(pyslang.Bag([options]))
    for path in sources:
        tree = syntax.SyntaxTree.fromFile(str(path), manager)
        errors = [d for d in tree.diagnostics if d.isError()]
        if errors:
            first = pyslang.DiagnosticEngine.reportAll(manager, errors[:1]).strip().splitlines()
            raise RtlError(first[0] if first else f"{path}: does not parse", "sources")
        comp.addSyntaxTree(tree)
    tops = [inst for inst in comp.getRoot().topInstances if inst.name == top]
    if not tops:
        raise RtlError(f"no module '{top}' in the design files", "top")
    ports: dict[str, Port] = {}
    for port in tops[0].body.portList:
        if not isinstance(port, ast.PortSymbol):
            raise RtlError(f"module '{top}': port '{port.name}' is an interface port, not a wire", "top")
        if port.direction not in (ast.ArgumentDirection.In, ast.ArgumentDirection.Out):
            raise RtlError(f"module '{top}': port '{port.name}' is {port.direction.name}, "
                           f"only inputs and outputs can be wrapped", "top")
        ports[port.name] = Port(port.name, port.direction == ast.ArgumentDirection.Out,
                                port.type.bitWidth)
    return ports
