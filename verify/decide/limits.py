"""Wall-clock limits for the stages that run code nobody here wrote.

A z3 query has its own timeout, but the code around it (the user's function run under
an interpretation, the searcher, the float checks) may loop or compute astronomically
large powers. ``time_limit`` interrupts such a stage; the caller turns the interruption
into ``unknown``, never into a verdict.

The limit is raised in the code the block runs, never inside a destructor (``__del__``,
which z3's objects have): there Python would print the exception and carry on, and the
limit would be lost; the alarm comes back a few milliseconds later instead.

Does not cover: threads other than the main one (no limit is applied there) and
platforms without ``signal.setitimer``.
"""
from __future__ import annotations

import contextlib
import time
from typing import Callable


class TimeLimit(BaseException):
    """A stage ran past its wall-clock limit (a BaseException, so that neither the
    user's code nor hypothesis swallows it)."""


class PointTimeLimit(TimeLimit):
    """One evaluation at one point ran past its limit: that point decides nothing."""


@contextlib.contextmanager
def time_limit(seconds: float | None, message: Callable[[], str] | None = None,
               kind: type[TimeLimit] = TimeLimit):
    """Interrupt the block after ``seconds`` (main thread only; elsewhere no limit),
    raising ``kind(message())`` (by default ``TimeLimit("ran past … s")``).
    User code may loop or compute astronomically large powers: a stage that runs out
    of time gives ``unknown``, never a verdict."""
    import signal
    import threading
    if (not seconds or threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        yield
        return

    def handler(signum, frame):
        if _in_finalizer(frame):  # raised there it would be printed and lost: try again
            signal.setitimer(signal.ITIMER_REAL, FINALIZER_RETRY_S)
            return
        raise kind(message() if message else f"ran past {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, handler)
    old_delay, old_interval = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    # an enclosing limit that expires first still applies
    signal.setitimer(signal.ITIMER_REAL, min(seconds, old_delay) if old_delay else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if old_delay:
            left = old_delay - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-4), old_interval)



FINALIZER_RETRY_S = 0.005


def _in_finalizer(frame) -> bool:
    """Whether the interrupted code runs inside a ``__del__`` (a z3 object freed in the
    middle of a query) or a garbage-collector callback (hypothesis times collections
    with one): an exception raised there is reported as unraisable and swallowed, so
    the limit would silently not hold."""
    import gc
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code.co_name == "__del__" or frame.f_code in callbacks:
            return True
        frame = frame.f_back
    return False


def one_line(exc: BaseException) -> str:
    """An exception's message on one line of at most about 200 characters: how a stage
    that failed or ran out of time is named in a verdict's reason."""
    text = " ".join(str(exc).split())
    if text == "b'parser error'":  # z3's answer to a Python ±∞ or NaN in its arithmetic
        text = "z3 could not read a number: a ±∞ or NaN computed at run time met a z3 term"
    return text[:200] + ("…" if len(text) > 200 else "")
