"""The one JSON writer: every ``--json`` document and every certificate file.

Strict JSON only (``allow_nan=False``), with these conventions for values JSON cannot
hold, the ones the checker has always written:

- a non-finite float is the string ``"inf"``, ``"-inf"`` or ``"nan"``;
- a tuple (a tuple state, a counterexample binding) is a list;
- a numpy or torch scalar is the Python number it holds, a torch tensor or numpy
  array its nested list (``.tolist()``);
- a ``Fraction`` is an ``int`` when whole, a ``float`` when that float is exactly it,
  else the string ``"p/q"``; an mpmath number likewise an int or exact float, else its
  decimal string to 30 digits;
- a mapping's keys become strings; anything else is ``str(value)``.

Text is UTF-8 (``ensure_ascii=False``), indented by two spaces.

``read_document`` reads a document back from a regular file of bounded size (it gives
the conventions' strings, not floats).

>>> dumps({"rho": float("inf"), "state": (1, 2.5)}, indent=None)
'{"rho": "inf", "state": [1, 2.5]}'
>>> from fractions import Fraction
>>> to_plain([Fraction(3), Fraction(1, 2), Fraction(1, 3)])
[3, 0.5, '1/3']
"""
from __future__ import annotations

import json
import math
import os
import stat
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Mapping


def to_plain(value: Any) -> Any:
    """``value`` with every part replaced by a strict-JSON value (see the module)."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, Fraction):
        return _fraction(value)
    if type(value).__module__.startswith("mpmath"):
        return _mpmath(value)
    tolist = getattr(value, "tolist", None)
    if callable(tolist):  # numpy arrays and scalars, torch tensors
        try:
            return to_plain(tolist())
        except (TypeError, ValueError, RuntimeError):
            return str(value)
    return str(value)


def _float(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _fraction(x: Fraction) -> int | float | str:
    if x.denominator == 1:
        return int(x)
    f = float(x)
    return f if Fraction(f) == x else f"{x.numerator}/{x.denominator}"


def _mpmath(x: Any) -> Any:
    import mpmath
    if isinstance(x, mpmath.mpf):
        if mpmath.isnan(x):
            return "nan"
        if mpmath.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x == int(x) and abs(x) < 2 ** 53:
            return int(x)
        f = float(x)
        return f if mpmath.mpf(f) == x else mpmath.nstr(x, 30)
    return str(x)


def dumps(doc: Any, indent: int | None = 2) -> str:
    """``doc`` as strict JSON text (no trailing newline)."""
    return json.dumps(to_plain(doc), allow_nan=False, ensure_ascii=False, indent=indent)


def emit(doc: Any, stream: IO[str] | None = None) -> None:
    """Write ``doc`` as one JSON document and a newline to ``stream`` (stdout)."""
    out = stream if stream is not None else sys.stdout
    out.write(dumps(doc) + "\n")
    out.flush()


def write_atomic(path: str | os.PathLike, doc: Any) -> Path:
    """Write ``doc`` to ``path`` through a temporary file in the same directory and a
    rename, so that a reader (another process, another test worker) never sees half a
    file. The directory must exist."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(dumps(doc) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


MAX_DOCUMENT_BYTES = 32 * 2 ** 20   # the project's largest certificate is well under 1 MiB


def read_document(path: str | os.PathLike, limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """The JSON document in ``path``. ``ValueError`` when it is not a regular file (a
    device or a fifo may never end), is larger than ``limit`` bytes or is not UTF-8
    JSON; ``OSError`` when it cannot be opened; ``RecursionError`` when it is nested
    too deeply for the parser."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a fifo does not wait
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file, not read")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit / 2 ** 20:g} MiB, not read")
    return json.loads(data.decode("utf-8"))
