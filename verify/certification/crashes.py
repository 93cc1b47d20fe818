"""A case that raised, described as a crash rather than as a numeric failure.

``describe`` gives the record's ``crash`` (``"ExceptionType: first line of the
message"``) and ``crash_at`` (``file:line`` of the innermost traceback frame inside
one of the kernel's own files, else the innermost frame outside the checker, the
standard library and installed packages; None when there is no such frame).
``Refusal`` marks a raise the certifier makes on purpose (a combine refuted
associative): the case fails with its reason and is not a crash.
``all_crashed`` is the note of a certificate whose cases all crashed, so it does not
read like one that failed on its numbers.
"""
from __future__ import annotations

import os
import sysconfig
import traceback
from typing import Iterable, Mapping

_CHECKER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # verify/
_NOT_USERS = tuple(os.path.abspath(p) + os.sep for p in {
    _CHECKER, *(sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib"))})


class Refusal(AssertionError):
    """The certifier refuses the case on purpose; a failure, not a crash."""


def first_line(exc: BaseException) -> str:
    """``"ExceptionType: first line of the message"`` (the type alone for no message)."""
    lines = str(exc).strip().splitlines()
    head = type(exc).__name__
    return f"{head}: {lines[0].strip()}" if lines else head


def describe(exc: BaseException, files: Iterable[str] = ()) -> dict:
    """{"crash", "crash_at"} for ``exc``; ``files`` are the kernel's own source files."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = {os.path.abspath(f) for f in files if f}
    at = next((f for f in reversed(frames) if os.path.abspath(f.filename) in own), None)
    if at is None:
        at = next((f for f in reversed(frames)
                   if not os.path.abspath(f.filename).startswith(_NOT_USERS)), None)
    return {"crash": first_line(exc),
            "crash_at": f"{_short(at.filename)}:{at.lineno}" if at is not None else None}


def _short(path: str) -> str:
    """The path relative to the current folder when it lies under it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def all_crashed(per_dtype: Mapping[str, Mapping]) -> str | None:
    """"every case crashed: …" when every case of every certified dtype crashed (with
    the first crash and where), "every float16 case crashed: …" for a dtype whose cases
    all crashed while another's ran; None otherwise."""
    crashed = {d: [c for c in r.get("cases", []) if c.get("crash")]
               for d, r in per_dtype.items()}
    whole = {d for d, r in per_dtype.items()
             if r.get("cases") and len(crashed[d]) == len(r["cases"])}
    if not whole:
        return None
    first = crashed[sorted(whole, key=list(per_dtype).index)[0]][0]
    where = f" (at {first['crash_at']})" if first.get("crash_at") else ""
    if whole == set(per_dtype):
        return f"every case crashed: {first['crash']}{where}"
    return (f"every {', '.join(d for d in per_dtype if d in whole)} case crashed: "
            f"{first['crash']}{where}")
