"""Coverage of the VTA regression: functional bins, Verilator code coverage, report.

See tb/cov/README.md. The pieces are small modules with one job each: ``points``
(what is measured), ``model`` (cocotb-coverage bins), ``hook`` (the pyuvm collector),
``data``/``waivers``/``testplan`` (files), ``codecov`` (Verilator), ``steer`` and
``closure`` (reaching the bins), ``report`` and ``run`` (the command lines).
"""
