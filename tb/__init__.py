"""cocotb testbench for the VTA RTL (rtl/): runner, vector test, CLI (python -m tb.sim)."""
