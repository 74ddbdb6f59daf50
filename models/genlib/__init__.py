"""Building blocks of the random program generator (models/gen.py).

One job per module: ``knobs`` (what may vary), ``rand`` (draw helpers), ``plan``
(tiles, token wiring and the program order of stages), ``shapes`` (LOAD/STORE tiles,
micro-op loops, immediates), ``pools`` (DRAM data the program reads and writes),
``stages`` (instructions of one stage with its token flags) and ``layout`` (DRAM
placement, bases and images).
"""
