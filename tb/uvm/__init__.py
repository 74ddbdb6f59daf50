"""The pyuvm testbench: only what runs inside the simulator (see README.md in this directory).

UVM-shaped: agents/ (bus and host drivers, monitors, transactions), checkers/ (protocol,
scoreboard, stray writes, bus responses, the job's verdict), env/ (the environments of both
testbench modes, the watch, the status decoder), seq_lib/ (one sequence or flow per module and
the table of the sequence each job kind runs), cov/ (the coverage collector), the job context
every component reads (context.py) and the cocotb test module cocotb_plan.py; the contract
``uvm`` in pyproject.toml keeps that order. The rules it checks are in tb/rules, the jobs it
runs in tb/plan; the process that starts the simulator (tb/launch) names the cocotb test
module by a string and is never imported from here.
"""
