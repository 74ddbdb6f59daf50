"""What to run, no cocotb or pyuvm: jobs, the test registry and its job makers, backpressure
profiles, which jobs a DUT can run, saved failures, the DUT map, and the cocotb-free facts the
simulator side shares with the launcher (testbench modes, clock, coverage switch, the session's
batch hand-off)."""
