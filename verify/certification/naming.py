"""Certificate names of users' bindings: readable, safe as file names, and never a
project kernel's, so that a user's certificate cannot overwrite (or be mistaken for)
``certificates/<kernel>.<backend>.json`` of a kernel in ``impls/``.

- A name given with ``bind(..., name=...)`` is kept, its characters outside
  ``A–Z a–z 0–9 . _ -`` replaced by ``_``; one equal to a project kernel's name is
  ``BadInput``.
- Without one, ``bind`` names the binding after the wrapper (``fn.__name__``), or after
  the wrapper's file when the wrapper has no usable name (a lambda); ``load_binding``
  renames it after the binding's file and variable: ``my_softmax`` for
  ``my_softmax.py`` (its ``KERNEL``), ``my_softmax.NAME`` for ``my_softmax.py:NAME``.
  A default that would equal a project kernel's name gets the prefix ``user.``
  (``softmax.py`` → ``user.softmax``).
"""
from __future__ import annotations

import functools
import os
import re
from typing import Any

from verify.errors import BadInput

USER_PREFIX = "user."
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@functools.lru_cache(maxsize=1)
def project_kernels() -> frozenset[str]:
    """The names of the kernels in ``impls/`` (their certificates' names)."""
    import impls
    return frozenset(impls.kernel_names())


def sanitized(name: str) -> str:
    """``name`` with every character unsafe in a file name replaced by ``_`` and no
    leading dot; ``kernel`` when nothing is left."""
    clean = _UNSAFE.sub("_", name).lstrip(".")
    return clean or "kernel"


def _distinct(name: str) -> str:
    return USER_PREFIX + name if name in project_kernels() else name


def explicit(name: str) -> str:
    """A name given with ``name=``: sanitised; ``BadInput`` when it is a project
    kernel's."""
    clean = sanitized(str(name))
    if clean in project_kernels():
        raise BadInput(f"name={name!r} is the name of the project kernel impls/{clean}.py; "
                       f"choose another (its certificate would be taken for that kernel's)")
    return clean


def from_wrapper(fn: Any) -> str:
    """The default name of a binding made by ``bind``: the wrapper's name, or its file's
    stem when the wrapper has none usable (a lambda, a partial)."""
    name = getattr(fn, "__name__", "")
    if not name.isidentifier():
        name = _file_stem(fn) or "kernel"
    return _distinct(sanitized(name))


def from_file(path: str, variable: str, default_variable: str = "KERNEL") -> str:
    """The default name of a binding loaded from ``path``: the file's stem, followed by
    ``.variable`` unless the variable is the file's default one."""
    stem = os.path.basename(path)
    stem = stem[:-3] if stem.endswith(".py") else stem
    name = stem if variable == default_variable else f"{stem}.{variable}"
    return _distinct(sanitized(name))


def _file_stem(fn: Any) -> str | None:
    code = getattr(fn, "__code__", None) or getattr(getattr(fn, "func", None), "__code__",
                                                     None)
    if code is None:
        return None
    stem = os.path.basename(code.co_filename)
    return stem[:-3] if stem.endswith(".py") else None
