"""Put the repository root on sys.path, so that the tests import ``models``, ``tb`` and
``vectors`` as top-level packages however pytest is started (``--import-mode=importlib``,
for one, leaves sys.path alone).

It defines no fixtures and caches no simulator runs. A test module whose tests share one run
holds it in a module-scoped fixture of its own (test_regress.py, for one); across modules only
the simulator builds are reused: tb/launch/simbuild.py keeps them under build/sim/ and remakes one
only when a stamp of its inputs changes.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
