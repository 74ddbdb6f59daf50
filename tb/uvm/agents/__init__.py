"""Agents: what drives and samples the DUT's ports (the host's AXI-Lite master, the AXI memory
slave and the fast mode's memory image, the edge sampler, the bus monitors and their
transactions)."""
