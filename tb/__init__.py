"""Testbench for the VTA RTL (rtl/): the pyuvm environment in tb/uvm, coverage in tb/cov."""
