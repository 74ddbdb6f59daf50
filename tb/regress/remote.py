"""Dask tasks that a scheduler unpickles without the suite: only a worker imports ``tb``.

Why: distributed (2026.8) unpickles every submitted task graph on the scheduler. A task
naming ``tb.regress.engine.run_chunk`` and a ``Chunk`` made the scheduler import ``tb``, so
the scheduler README starts anywhere (a Dask environment, none of the suite's code) ended
the run with a traceback. A task made by :func:`task` is ``pickle.loads(payload)``: the
scheduler holds a standard-library function and bytes. On a worker, unpickling the payload
calls :func:`call`, sent by value (this module imports nothing of the suite), which
unpickles the real function and arguments, importing the suite there, and runs them; a
worker that cannot import the suite raises one ImportError naming itself and the fix.
"""
from __future__ import annotations

import pickle
import sys
from collections.abc import Callable
from typing import Any

import cloudpickle
from distributed import get_worker

FIX = "start it from the checkout's root with PYTHONPATH=$PWD"


class _CallOnLoad:
    """Unpickles into ``call(inner)`` (pickle's reduce protocol): loading it runs the task."""

    def __init__(self, inner: bytes) -> None:
        self.inner = inner

    def __reduce__(self) -> tuple[Callable[[bytes], Any], tuple[bytes]]:
        return call, (self.inner,)


def task(func: Callable[..., Any], *args: Any) -> tuple[Callable[[bytes], Any], bytes]:
    """``(pickle.loads, payload)``: ``client.submit(*task(f, x))`` runs ``f(x)`` on a worker."""
    return pickle.loads, cloudpickle.dumps(_CallOnLoad(pickle.dumps((func, args))))


def call(inner: bytes) -> Any:
    """On the worker: the task's function and arguments, unpickled here, run here."""
    try:
        func, args = pickle.loads(inner)
    except ImportError as exc:
        worker = get_worker()
        raise ImportError(f"worker {worker.name} at {worker.address}: cannot import the suite's "
                          f"modules ({exc}): {FIX}") from None
    return func(*args)


cloudpickle.register_pickle_by_value(sys.modules[__name__])
