"""The most tokens a queue can hold at once (models/checker/tokens.py: max_outstanding), on
token-only programs whose answer is worked out by hand. A design whose counter is shallower
than this (upstream's Chisel drops the push) is told apart from one that never fills."""
from __future__ import annotations

from models.checker.tokens import Op, max_outstanding


def program(*steps: tuple[str, tuple[str, ...], tuple[str, ...]]) -> list[Op]:
    """Ops from (module, pops, pushes) in program order."""
    pos = {"load": 0, "compute": 0, "store": 0}
    ops = []
    for n, (module, pops, pushes) in enumerate(steps):
        pos[module] += 1
        ops.append(Op(n, module, pos[module], pops, pushes))
    return ops


def test_a_free_running_producer_fills_the_queue() -> None:
    """Five loads push L2C with nothing to wait for: all five can be there before compute pops."""
    ops = program(*[("load", (), ("L2C",))] * 5, *[("compute", ("L2C",), ())] * 5)
    assert max_outstanding(ops, "L2C") == 5
    assert max_outstanding(ops, "C2L") == 0


def test_a_returned_token_bounds_the_run_ahead() -> None:
    """Double buffering: load t (t >= 2) pops the C2L that compute t-2 pushed, so at most two
    L2C tokens are ever waiting, however many tiles there are."""
    steps: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    tiles = 8
    for t in range(tiles):
        steps.append(("load", ("C2L",) if t >= 2 else (), ("L2C",)))
        if t >= 1:
            steps.append(("compute", ("L2C",), ("C2L",) if t - 1 + 2 < tiles else ()))
    steps.append(("compute", ("L2C",), ()))
    ops = program(*steps)
    assert max_outstanding(ops, "L2C") == 2
    assert max_outstanding(ops, "C2L") == 2


def test_a_third_module_can_hold_the_producer_back() -> None:
    """Compute pushes C2S three times but must pop an S2C before the third push, and the one
    S2C comes from the store that needs the first C2S: C2S never holds more than two."""
    ops = program(("compute", (), ("C2S",)), ("compute", (), ("C2S",)),
                  ("store", ("C2S",), ("S2C",)), ("compute", ("S2C",), ("C2S",)),
                  ("store", ("C2S",), ()), ("store", ("C2S",), ()))
    assert max_outstanding(ops, "C2S") == 2
