"""Dask tasks that a scheduler unpickles without the suite: only a worker imports ``tb``.

Why: distributed (2026.8) unpickles every submitted task graph on the scheduler. A task
naming ``tb.regress.engine.run_chunk`` and a ``Chunk`` made the scheduler import ``tb``, so
the scheduler README starts anywhere (a Dask environment, none of the suite's code) ended
the run with a traceback. A task made by :func:`task` is ``pickle.loads(payload)``: the
scheduler holds a standard-library function and bytes. On a worker, unpickling the payload
calls :func:`call`, sent by value (this module imports nothing of the suite), which
unpickles the real function and arguments, importing the suite there, and runs them. A
worker that cannot import the suite, or whose checkout lacks a name the task uses (an older
commit), raises one ImportError naming itself and the fix.
"""
from __future__ import annotations

import pickle
import sys
from collections.abc import Callable
from typing import Any

import cloudpickle
from distributed import get_worker

NO_SUITE = "start it from the checkout's root with PYTHONPATH=$PWD"
OTHER_SOURCES = "check out the same commit there"


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
        raise refusal(f"cannot import the suite's modules ({exc}): {NO_SUITE}") from None
    except AttributeError as exc:  # pickle's "Can't get attribute": a name this checkout lacks
        raise refusal(f"runs other sources than the client ({exc}): {OTHER_SOURCES}") from None
    return func(*args)


def refusal(why: str) -> ImportError:
    """The one-line error of this worker; ImportError, a builtin the client unpickles, which
    tb/regress/engine.py turns into its EngineError."""
    worker = get_worker()
    return ImportError(f"worker {worker.name} at {worker.address}: {why}")


cloudpickle.register_pickle_by_value(sys.modules[__name__])
