"""Workloads on the RTL: ResNet-18 layers (models/workloads) run through the testbench,
measured against the roofline (`make workloads`)."""
