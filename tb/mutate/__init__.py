"""Mutation testing of rtl/: how many small bugs planted in the design the suite's tests find.

    source.py    parse rtl/*.v with slang; one elaboration for ranges, ports, parameters
    operators.py the mutation operators: the edits each makes of a syntax node
    sites.py     every site (mutant) of the design, with a stable id
    sample.py    a reproducible sample spread over the modules by size
    mutant.py    a mutant's copy of the design on disk; its diff
    testsets.py  the test sets (directed, quick, regress) as the suite's own commands
    execute.py   lint and run one design through the stages, stop at the first failure
    equiv.py     Yosys equivalence check of a survivor against the original
    report.py    report.json and report.html
    history.py   the survivors of earlier runs (history.json): closed by what, or argued equivalent
    runner.py    the run: baseline, mutants in parallel, equivalence, report
    cli.py       python -m tb.mutate
"""
