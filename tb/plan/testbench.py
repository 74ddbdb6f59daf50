"""The testbench's facts that both sides of the simulator share: its modes and its clock.

The builder (tb/launch/simbuild.py) compiles each mode's toplevel; the cocotb test and the
agents inside the simulator (tb/uvm) clock the DUT and convert cycles to time with
``PERIOD_NS``; the planner and the saved failures (tb/plan) name the mode. Kept here, free of
cocotb and of the builder, so that nothing in the simulator imports the builder.
"""
from __future__ import annotations

#: The toplevel of each testbench mode: full (Python bus models on vta_tb_top's ports) and
#: fast (vta_tb_fast: memory, host and checkers in the simulation, tb/uvm/env/fast.py).
TOPLEVELS = {"full": "vta_tb_top", "fast": "vta_tb_fast"}
MODES = tuple(TOPLEVELS)
PERIOD_NS = 10  # the testbench clock (tb/uvm/cocotb_plan.py); Timer waits convert cycles with it
