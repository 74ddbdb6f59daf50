"""Synthesis of rtl/ with Yosys: resources per module and in total, and synthesis lint.

`make synth` (``python -m tb.synth``) synthesizes vta_top for one configuration and one
target (Xilinx 7-series, Lattice ECP5 or a generic 4-LUT netlist) and reports LUT, FF, carry,
block RAM, DSP and distributed-RAM cells per module and in total, cached per configuration,
target and source hash; `--dut NAME` (`make synth DUT=NAME`) synthesizes another design's
netlist, named by its DUT profile (tb/duts/), the same way. `make lint` runs
``python -m tb.synth.lint``: the findings a synthesis run would stop on or silently degrade
(latches, multiple drivers, combinational loops, memories that cannot go to block RAM), on
`small`, in seconds.

    design.py    what is synthesized: rtl/ at a configuration, or a DUT profile's netlist
    targets.py   the targets: synthesis command and which cells count as which resource
    script.py    staged sources and the Yosys scripts (synthesis, lint)
    yosys.py     runs Yosys, echoing its pass headers as progress
    stat.py      `stat -json` (hierarchical) -> resources per module and in total
    cache.py     the cache key and the cached result
    report.py    the table and the JSON document
    lint.py      the lint rules
"""
