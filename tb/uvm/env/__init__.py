"""Environments: the full and fast modes' environments that wire agents to checkers, the job
context each component reads its limits from, the watch that waits for DONE, and the status
decoder used when a job hangs."""
