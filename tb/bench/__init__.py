"""Benchmarks of the suite's own speed: the testbench's throughput against the plain-Verilog
bench (throughput.py over plain.py) and netlists against rtl/ (gate.py). The testbench runs go
through the launcher (tb/launch/launch.py); each prints figures the README quotes with the
command that produced them."""
