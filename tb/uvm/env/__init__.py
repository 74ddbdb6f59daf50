"""Environments: the full and fast modes' environments that wire agents to checkers, the watch
that waits for DONE under the job context's limits (tb/uvm/context.py), and the status decoder
used when a job hangs."""
