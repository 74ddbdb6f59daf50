"""Checker rules and records, no cocotb or pyuvm: the failure record, the ordering, liveness,
counter and AXI rules, the register table, the faults and their codes, what a flow must reach,
the watchdog's limits. Shared by the in-simulator checkers (tb/uvm), the planner (tb/plan) and
triage (tb/triage); the test-only Verilog's codes are generated from here (hdl_codes.py)."""
