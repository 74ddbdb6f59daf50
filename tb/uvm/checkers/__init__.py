"""Checkers: the components that judge what the agents saw (AXI protocol, responses against
the injected errors, scoreboard, stray writes, the DUT's own log) and the job's verdict their
failures end in."""
