"""Functional coverage inside the simulator: the points, the collector on the environment's
analysis ports, and the data files each simulator process writes (tb/cov runs the coverage
regression and reports on these files)."""
