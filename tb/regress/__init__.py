"""``make regress``: random programs in chunks on Dask workers (``python -m tb.regress``).

    plan.py     parameters, run directory, chunks (what runs; a pure function of the parameters)
    engine.py   chunks on a Dask cluster or inline; results as they finish
    remote.py   a task as bytes only a worker unpickles (the scheduler needs no code of the suite)
    store.py    the run's results.jsonl, appended per chunk (resume, one result per chunk)
    report.py   table, failures with repro commands, totals, JUnit
    bench.py    programs per minute: one process against Dask workers
"""
