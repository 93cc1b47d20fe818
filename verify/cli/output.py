"""Where the command line writes: one JSON document or a readable report on stdout,
progress and errors on stderr.

Consoles take their width from the terminal, or from ``COLUMNS`` (80 when unset) when
stdout is not a terminal, so tables are laid out for 80 columns in pipes and logs.
"""
from __future__ import annotations

import os
import sys
from typing import IO, Any, cast

from rich.console import Console

from verify import jsonio
from verify.errors import BadInput


def emit_json(doc: Any) -> None:
    """``doc`` as one strict JSON document on stdout (``verify.jsonio``)."""
    jsonio.emit(doc, cast(IO[str], _Stdout()))


def out_console() -> Console:
    return Console(file=cast(IO[str], _Stdout()), highlight=False, soft_wrap=False)


class _Stdout:
    """``sys.stdout`` (as it is at each write) whose write errors are ``OutputError``."""

    def write(self, text: str) -> int:
        try:
            return sys.stdout.write(text)
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def flush(self) -> None:
        try:
            sys.stdout.flush()
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(sys.stdout, name)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


STYLE = {"proved": "bold green", "proved-bounded": "green", "tested": "cyan", "statistical": "cyan",
         "unknown": "yellow", "refuted": "magenta", "error": "bold red"}


class OutputError(BadInput):
    """Standard output cannot be written: closed, a pipe whose reader left, a full
    disk."""

    @classmethod
    def of(cls, exc: OSError) -> "OutputError | None":
        """A pipe whose reader left is the output's problem; other errors are not."""
        if isinstance(exc, BrokenPipeError):
            return cls(f"cannot write the output: {exc.strerror or exc}")
        return None


def stdout_problem() -> str | None:
    """Why nothing could be written to standard output (closed), or None."""
    if sys.stdout is None:
        return "standard output is closed; nothing could be written"
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # a stream without a descriptor (tests)
        return None
    try:
        os.fstat(fd)
    except OSError:
        return "standard output is closed; nothing could be written"
    return None


def finish_output() -> None:
    """Flush standard output; ``OutputError`` when that fails."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:
        raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


def sane_terminal_size() -> None:
    """``COLUMNS``/``LINES`` that are not positive integers are treated as unset (rich
    would lay tables out for zero columns and print nothing)."""
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and not (value.strip().isdigit() and int(value) > 0):
            del os.environ[name]


def warnings_as_lines() -> None:
    """The checker's own warnings (a query file not written) as one line each on
    stderr, ``verify: warning: …``; other warnings as Python shows them."""
    import warnings
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if category.__module__.startswith("verify."):
            print(f"verify: warning: {' '.join(str(message).split())}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)
    warnings.showwarning = show
