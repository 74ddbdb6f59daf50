"""The GitHub Actions workflow .github/workflows/ci.yml: actionlint (run by `make lint` with
the same arguments) accepts it and rejects broken copies naming the problem, and it runs
what README says: `make test` on push and pull request, `make regress SIM=all` and
`make coverage` nightly with their reports kept, after installing sysdeps.py's packages.

Nothing runs the workflow on this machine, so a typo in it would only show on GitHub; the
lint and the content checks here are what stands between an edit and a silently dead CI.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tb.paths import ROOT
from tb.sysdeps import TOOLS

WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
#: `make lint`'s actionlint arguments: shellcheck and pyflakes integration off, so the verdict
#: does not depend on whether the machine happens to have them.
ACTIONLINT = ["actionlint", "-shellcheck=", "-pyflakes=", "-no-color"]


def actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    """actionlint from .venv/bin (where requirements.txt installs it) on one workflow file."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run([*ACTIONLINT, str(path)], cwd=path.parent, env=env, capture_output=True,
                          text=True, timeout=60)


def load() -> dict:
    """The workflow as data; YAML 1.1 reads the key `on` as True, so it is renamed back."""
    data = yaml.safe_load(WORKFLOW.read_text())
    data["on"] = data.pop(True)
    return data


def runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def test_make_lint_runs_actionlint_with_these_arguments() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert f"\t{' '.join(ACTIONLINT[:3])} .github/workflows/*.yml" in recipe, recipe


@pytest.mark.sim
def test_actionlint_accepts_the_workflow() -> None:
    proc = actionlint(WORKFLOW)
    assert proc.returncode == 0 and not (proc.stdout + proc.stderr).strip(), proc.stdout + proc.stderr


#: (text of the workflow, its broken replacement, what actionlint's message must say)
BROKEN = {
    "misspelt-key": ("runs-on: ubuntu-22.04  #", "run-on: ubuntu-22.04  #",
                     '"runs-on" section is missing in job "test"'),
    "unknown-context-property": ("github.event_name == 'schedule'", "github.event_nam == 'schedule'",
                                 'property "event_nam" is not defined'),
    "unknown-action-input": ("retention-days: 30", "retention-dayz: 30",
                             'input "retention-dayz" is not defined in action "actions/upload-artifact@v4"'),
    "bad-cron": ('cron: "30 2 * * *"', 'cron: "30 25 * * *"', 'invalid CRON format "30 25 * * *"'),
}


@pytest.mark.sim
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_actionlint_rejects_a_broken_copy(tmp_path: Path, case: str) -> None:
    old, new, message = BROKEN[case]
    text = WORKFLOW.read_text()
    assert text.count(old) == 1, f"ci.yml no longer holds {old!r} once: update BROKEN"
    broken = tmp_path / "ci.yml"
    broken.write_text(text.replace(old, new))
    proc = actionlint(broken)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert message in out and "ci.yml:" in out, out


def test_push_and_pull_request_run_make_test() -> None:
    data = load()
    assert {"push", "pull_request", "schedule"} <= set(data["on"])
    test = data["jobs"]["test"]
    assert "'push'" in test["if"] and "'pull_request'" in test["if"] and "schedule" not in test["if"]
    assert runs(test)[-1] == "make test"
    # GitHub has no ../shared/upstream-vta/: the upstream tests are skipped knowingly, by name
    step = next(s for s in test["steps"] if s.get("run") == "make test")
    assert step["env"] == {"VTA_NO_UPSTREAM": "1"}


def test_nightly_runs_regress_on_both_simulators_and_coverage_and_keeps_the_reports() -> None:
    data = load()
    nightly = data["jobs"]["nightly"]
    assert "'schedule'" in nightly["if"]
    assert runs(nightly)[-2:] == ["make regress SIM=all", "make coverage"]
    coverage = next(s for s in nightly["steps"] if s.get("run") == "make coverage")
    assert coverage["if"] == "${{ !cancelled() }}", "coverage must run after a failed regression"
    upload = next(s for s in nightly["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["if"] == "${{ always() }}", "the reports matter most when something failed"
    assert upload["with"]["path"].split() == ["build/regress-*.xml", "build/regress-*-buckets.html",
                                              "build/coverage/", "build/failures/"]


def test_every_job_installs_the_system_packages_sysdeps_names() -> None:
    for name, job in load()["jobs"].items():
        install = next((r for r in runs(job) if "apt-get install" in r), None)
        assert install is not None, f"job {name} installs no system package"
        packages = set(re.split(r"\s+", install.split("--no-install-recommends", 1)[1].strip()))
        assert packages == set(TOOLS.values()), f"job {name}: {packages} != tb/sysdeps.py's"
