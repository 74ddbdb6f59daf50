"""pyuvm testbench of the VTA verification suite (see README.md in this directory).

The package is split into small modules with one job each: transactions, signal
sampling, AXI monitors and protocol checks, the host and memory agents, the
scoreboards, the watchdog, the environment and virtual sequences, and the command-line
runner that launches cocotb simulations and triages their failures.
"""
