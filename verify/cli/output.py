"""Where the command line writes: one JSON document or a readable report on stdout,
progress and errors on stderr.

Consoles take their width from the terminal, or from ``COLUMNS`` (80 when unset) when
stdout is not a terminal, so tables are laid out for 80 columns in pipes and logs.
"""
from __future__ import annotations

import sys
from typing import Any

from rich.console import Console

from verify import jsonio


def emit_json(doc: Any) -> None:
    """``doc`` as one strict JSON document on stdout (``verify.jsonio``)."""
    jsonio.emit(doc, sys.stdout)


def out_console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


STYLE = {"proved": "bold green", "proved-bounded": "green", "tested": "cyan", "statistical": "cyan",
         "unknown": "yellow", "refuted": "magenta", "error": "bold red"}
