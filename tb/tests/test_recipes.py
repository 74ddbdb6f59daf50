"""tb/README.md's recipes stay true: every file they name exists, every command they name is
a module that exists, and "Add a checker" works as written: a toy checker, defined here and
registered by one entry of the checker table alone, is built by the full mode's environment on
its port, gets the job context, reports a failure of its own kind, and its Verilog twin's
latch is read by the fast mode's checks; a DUT difference is named alike in the files of its
recipe. No simulator runs."""
from __future__ import annotations

import re
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from models.genlib.restrict import RESTRICTIONS
from tb.duts.differences import DIFFERENCES
from tb.duts.semantics import MODELLED
from tb.paths import ROOT
from tb.rules import checks, failure
from tb.rules.checks import CHECKS, Check, kinds
from tb.rules.failure import KINDS, Failure
from tb.uvm.agents.sampler import ChannelSample
from tb.uvm.checkers import table
from tb.uvm.env.env import VtaEnv
from tb.uvm.env.fast import FastChecks

README = ROOT / "tb" / "README.md"
RECIPES = ("Add a checker", "Add a test or flow", "Add a DUT", "Add a DUT difference")
#: Kinds before the checker table existed: their values and order are in signatures and JUnit.
OLD_KINDS = ("scoreboard", "stray-write", "protocol", "ordering", "liveness", "watchdog",
             "register", "no-compare", "bus-error", "counter", "model", "assertion", "reach", "error")


def recipes() -> dict[str, str]:
    """Each recipe's section text (``### <heading>`` up to the next heading)."""
    text = README.read_text()
    found = dict(re.findall(r"^### (.+?)\n(.*?)(?=^#{2,3} |\Z)", text, re.M | re.S))
    return {name: found[name] for name in RECIPES if name in found}


def test_every_recipe_is_there() -> None:
    assert list(recipes()) == list(RECIPES)


@pytest.mark.parametrize("name", RECIPES)
def test_every_named_file_and_module_exists(name: str) -> None:
    """Backquoted paths (with a slash, no placeholder) exist; the suite's own ``python -m X``
    modules exist."""
    text = recipes()[name]
    paths = [p for p in re.findall(r"`([\w./-]+/[\w.-]+)`", text) if "<" not in p]
    assert paths, name
    for path in paths:
        assert (ROOT / path).exists(), f"{name}: {path} does not exist"
    for module in re.findall(r"python -m ((?:tb|models)\.[\w.]+)", text):
        base = ROOT / module.replace(".", "/")
        assert base.with_suffix(".py").is_file() or (base / "__main__.py").is_file(), module


def test_kinds_come_from_the_checker_table_unchanged() -> None:
    assert KINDS == kinds(CHECKS) == OLD_KINDS
    with pytest.raises(ValueError, match="declared twice"):
        kinds(CHECKS + (Check("error"),))
    with pytest.raises(ValueError, match="module:Class"):
        Check("toy", "toy", ports=("m_axi_gmem",))


def test_every_table_checker_resolves() -> None:
    """The table names its classes by string (it is below the simulator): each must exist."""
    for check in checks.built(CHECKS):
        cls = table.checker_class(check)
        assert callable(cls) and hasattr(cls, "start_job"), check
        assert not check.fast or hasattr(cls, "fast_findings"), check


class ToyChecker:
    """The recipe's example: a write address on a port whose job forbids writes."""

    def __init__(self, port: Any, report: Any) -> None:
        self.port, self.report, self.readonly = port, report, False

    def start_job(self, ctx: Any) -> None:
        self.readonly = ctx.readonly

    def on_reset(self) -> None:
        """Nothing is outstanding between samples."""

    def on_sample(self, cycle: int, sample: dict[str, ChannelSample]) -> None:
        if self.readonly and sample["aw"].fire:
            self.report(Failure("toy", f"write address on {self.port.name} at cycle {cycle}",
                                rule="no-writes", module=self.port.name, channel="AW"))

    @staticmethod
    def fast_findings(top: Any) -> list[Failure]:
        """The Verilog twin's latch (``u_toy.fired``) as the same record."""
        if not int(top.u_toy.fired.value):
            return []
        return [Failure("toy", "write address on m_axi_gmem", int(top.u_toy.cycle.value),
                        rule="no-writes", module="m_axi_gmem", channel="AW")]


@pytest.fixture
def toy_table(monkeypatch: pytest.MonkeyPatch) -> tuple[Check, ...]:
    """The checker table with one more entry, the only registration of the toy checker; its
    module is made here as tb/uvm/checkers/toy.py would be."""
    module = ModuleType("tb.uvm.checkers.toy")
    module.ToyChecker = ToyChecker  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with_toy = CHECKS + (Check("toy", "toy:ToyChecker", fast=True),)
    monkeypatch.setattr(table, "CHECKS", with_toy)
    monkeypatch.setattr(failure, "KINDS", kinds(with_toy))  # KINDS = kinds(CHECKS) at import
    return with_toy


def fake_port(name: str) -> Any:
    return SimpleNamespace(name=name, lite=name == "s_axi_control", data_bytes=8,
                           channels={ch: None for ch in ("aw", "w", "b", "ar", "r")})


def test_a_new_checker_is_its_module_and_one_entry(toy_table: tuple[Check, ...]) -> None:
    """The full mode's env (its connect_phase, run on stand-ins for the components it wires by
    name) builds the toy on its port from the table; the toy's kind is a failure kind, appended
    after the others."""
    assert kinds(toy_table) == (*OLD_KINDS, "toy")
    found: list[Failure] = []
    hook = SimpleNamespace(connect=lambda export: None)
    env: Any = SimpleNamespace(
        dut=SimpleNamespace(ap_clk=None, ap_rst_n=None), verdict=SimpleNamespace(report=found.append),
        axi_port=fake_port("m_axi_gmem"), lite_port=fake_port("s_axi_control"),
        memory=SimpleNamespace(answers=lambda: ({}, {})), stray=SimpleNamespace(analysis_export=None),
        axi_monitor=SimpleNamespace(ap=hook), lite_monitor=SimpleNamespace(ap=hook),
        axi_tap=SimpleNamespace(analysis_export=None), lite_tap=SimpleNamespace(analysis_export=None))
    VtaEnv.connect_phase(env)
    assert [type(c).__name__ for c in env.checkers] == ["AxiProtocolChecker"] * 2 + ["ToyChecker"]
    toy = env.checkers[-1]
    assert toy.port is env.axi_port
    listeners = dict((port.name, ls) for port, ls in env.sampler.ports)
    assert toy in listeners["m_axi_gmem"] and toy not in listeners["s_axi_control"]
    toy.start_job(SimpleNamespace(readonly=True))  # as the program sequence does, every job
    idle = ChannelSample("0", "1")
    toy.on_sample(7, {"aw": ChannelSample("1", "1"), "w": idle, "b": idle, "ar": idle, "r": idle})
    assert [(f.kind, f.rule, f.channel) for f in found] == [("toy", "no-writes", "AW")]
    assert Failure.from_json(found[0].to_json()) == found[0]


def test_a_new_fast_mode_checker_is_read_from_the_table(toy_table: tuple[Check, ...]) -> None:
    """The fast mode's checks read the toy's Verilog twin through the table's entry."""
    def latch(value: int) -> Any:
        return SimpleNamespace(value=value)

    idle = SimpleNamespace(violation=latch(0))
    dut = SimpleNamespace(u_chk_mem=idle, u_chk_lite=idle, mem_stray=latch(0),
                          u_toy=SimpleNamespace(fired=latch(1), cycle=latch(42)))
    [first] = FastChecks(dut, SimpleNamespace(), probes=False).findings()  # type: ignore[arg-type]
    assert (first.kind, first.cycle, first.rule) == ("toy", 42, "no-writes")


def test_a_difference_is_named_alike_in_every_file_of_its_recipe() -> None:
    """"Add a DUT difference": the generator's restrictions and the model's variants name
    differences of the closed list (a misspelt one would never apply); ``bases-or`` is the
    register map's ``base_combine: or``, not a difference."""
    assert set(RESTRICTIONS) - {"bases-or"} <= set(DIFFERENCES)
    assert set(MODELLED) <= set(DIFFERENCES) and set(MODELLED) <= set(RESTRICTIONS)
