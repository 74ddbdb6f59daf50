"""Gate-level simulation: rtl/ synthesized to gates, driven by the same testbench.

`make sim NETLIST=1 [CONFIG=small]` runs make sim's set on the netlist of a configuration
instead of rtl/: the netlist is a DUT like any other (tb/duts), named ``netlist:CONFIG``
(tb/duts/netlist.py), whose profile this package generates next to it. The profile says the
netlist is rtl/'s (its registers, counters and status words are rtl/'s, so every check made
through them holds) and names the checks bound to rtl/'s internal nets, which a flat
netlist does not keep, as not checked with the reason (tb/duts/probes.py).

    spec.py      DUT names netlist:CONFIG[:SCRIPT] and where each netlist lives
    scripts.py   the Yosys scripts: abc (make sim's), techmap (make test's smoke), broken (test-only)
    build.py     runs Yosys once per configuration, script, Yosys version and design; cached
    profile.py   the netlist's DUT profile
    bench.py     simulated cycles per second of the netlist against rtl/ on one program

`python -m tb.gate [--config C] [--script S]` builds a netlist on its own (a run on it
builds it too).
"""
