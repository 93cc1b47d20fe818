"""Progress on stderr, never on stdout: a rich bar or spinner when stderr is a terminal,
plain lines (at most one every few seconds) when it is a pipe or a log. Nothing is
shown for work that ends within about two seconds.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Callable

from verify.cli.output import err_console

QUIET_SECONDS = 2.0      # work shorter than this shows no progress
PLAIN_EVERY = 5.0        # plain lines: at most one per this many seconds


def _plain(text: str) -> None:
    print(f"verify: {text}", file=sys.stderr, flush=True)


class Counter:
    """Progress of ``total`` steps: ``step(label)`` after each. Use as a context
    manager."""

    def __init__(self, what: str, total: int) -> None:
        self.what, self.total, self.done = what, total, 0
        self._start = time.monotonic()
        self._last = self._start
        self._tty = sys.stderr.isatty()
        self._bar = None
        self._task = None

    def __enter__(self) -> "Counter":
        if self._tty:
            from rich.progress import Progress
            self._bar = Progress(console=err_console(), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=self.total)
        return self

    def step(self, label: str = "") -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.advance(self._task)
            return
        now = time.monotonic()
        if now - self._start >= QUIET_SECONDS and (now - self._last >= PLAIN_EVERY
                                                    or self.done == self.total):
            self._last = now
            _plain(f"{self.what}: {self.done}/{self.total}" + (f" ({label})" if label else ""))

    def note(self, text: str) -> None:
        """A line that must be seen (a disagreement), whatever the pace."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        else:
            _plain(text)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


class Waiting:
    """Work of unknown length: after ``QUIET_SECONDS`` (or ``after`` seconds while
    ``ready()`` is false), a spinner on a terminal, else a line every
    ``PLAIN_EVERY`` seconds with the time spent. Use as a context manager."""

    def __init__(self, what: str, ready: Callable[[], bool] | None = None,
                 after: float = QUIET_SECONDS) -> None:
        self.what, self.ready, self.after = what, ready, after
        self._stop = threading.Event()
        self._start = time.monotonic()
        self._ready_at: float | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "Waiting":
        self._start = time.monotonic()
        self._thread.start()
        return self

    def _due(self, now: float) -> bool:
        if self.ready is None:
            return now - self._start >= QUIET_SECONDS
        if self._ready_at is None and self.ready():
            self._ready_at = now
        if self._ready_at is not None:
            return now - self._ready_at >= QUIET_SECONDS
        return now - self._start >= self.after

    def _run(self) -> None:
        status = None
        last = None
        while not self._stop.wait(0.2):
            now = time.monotonic()
            if last is None and not self._due(now):
                continue
            if sys.stderr.isatty():
                if status is None:
                    status = err_console().status(self.what + " …")
                    status.start()
                continue
            if last is None or now - last >= PLAIN_EVERY:
                last = now
                _plain(f"{self.what} … {now - self._start:.0f} s")
        if status is not None:
            status.stop()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
