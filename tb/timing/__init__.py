"""Place and route of rtl/ with the open ECP5 tools: fmax, critical path, utilisation.

`make timing` (``python -m tb.timing``) synthesizes vta_top inside a pin-reducing wrapper
with the pinned Yosys (synth_ecp5), places and routes it with the pinned nextpnr-ecp5 on an
ECP5 part, and reports the clock's fmax against the constraint, the critical path named by
rtl/'s instances and signals, the utilisation as a share of the part, the seed and the wall
time, cached per configuration, design files, tool versions, part, seed and constraint.
`--dut NAME` (`make timing DUT=NAME`) places another design's netlist, named by its DUT
profile, in a wrapper generated from its own top's ports. It reuses tb/synth: the design
(tb/synth/design.py), its staging, the Yosys runner, the progress follower and the cache's
key and lookup.

    parts.py     the ECP5 parts by Lattice name, checked against nextpnr's own table
    knobs.py     SEED and FREQ, checked before anything runs
    wrapper.py   the wrapper: inputs from a shift register, outputs registered and XOR-reduced
    netlist.py   the synthesis script, the reused netlist, the instance -> module map
    nextpnr.py   nextpnr's command line, run with its phases as progress
    names.py     nextpnr's cell and net names -> instance, module, signal
    results.py   nextpnr's report JSON -> fmax, critical path, utilisation
    cache.py     the key of a place-and-route result
    report.py    timing.json and the table
"""
