"""Benchmarks of the suite's own speed: each runs jobs through the launcher (tb/launch/launch.py)
and prints figures the README quotes with the command that produced them."""
