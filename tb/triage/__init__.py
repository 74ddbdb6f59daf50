"""After a run: failure buckets, reruns of saved failures, the shrinker and its program
editor (CLIs ``python -m tb.triage.rerun``, ``python -m tb.triage.shrink``)."""
