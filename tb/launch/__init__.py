"""Builds, simulator processes, sessions, progress lines and the summary: everything that
starts the simulator and collects its records. It names the cocotb test module
(tb/uvm/cocotb_plan.py) by a string and never imports tb/uvm."""
