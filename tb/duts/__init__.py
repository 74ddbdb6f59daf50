"""DUT profiles: the designs the testbench can drive, described as data (see README.md).

``profile`` reads and checks a profile, ``wrapper`` writes the Verilog that gives its top
vta_top's ports; ``signals`` is the testbench's side of that mapping.
"""
