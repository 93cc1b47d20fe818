"""A user's ``.py`` file, read and imported the way the auditor and the certifier both
need it: every problem (no such file, not .py, unreadable, a syntax error, an import
that raises) is a ``BadInput`` with one line, and nothing of the file is left behind
in ``sys.modules`` or ``sys.path`` when it fails.

The file is imported as a module of its own, under a name unique to its absolute path
(two files called ``kernel.py`` in different folders never meet), with its folder
first on ``sys.path`` meanwhile so that its sibling modules import as they would when
Python runs the file.

Does not cover: isolation. The file runs with this process's rights; the command line
runs it in a child process (``verify.cli.sandbox``).
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import os
import sys
import types

from verify.decide.limits import one_line
from verify.errors import BadInput


def split_target(target: str, *, what: str, default: str | None = None,
                 error: type[BadInput] = BadInput) -> tuple[str, str]:
    """``FILE.py:NAME`` as (path, name); ``FILE.py`` alone names ``default`` when there
    is one. ``what`` is how the expected form reads in the message."""
    if default is not None and target.endswith(".py"):
        return target, default
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise error(f"expected {what}, got {target!r}")
    if not path.endswith(".py"):
        raise error(f"{path}: not a .py file")
    return path, name


def read_source(path: str, error: type[BadInput] = BadInput) -> str:
    """The text of a .py file, once it is known to exist, be readable and compile."""
    if not os.path.isfile(path):
        raise error(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot be read: {exc}") from None
    try:
        compile(source, path, "exec")
    except SyntaxError as exc:
        raise error(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    return source


def import_file(path: str, prefix: str, *, prints_to: io.TextIOBase | None = None,
                error: type[BadInput] = BadInput) -> types.ModuleType:
    """Import the file as module ``{prefix}_{stem}_{hash of its absolute path}``. Its
    prints go to ``prints_to`` (discarded when None)."""
    read_source(path, error)
    absolute = os.path.abspath(path)
    stem = "".join(c if c.isalnum() else "_" for c in os.path.basename(path)[:-3])
    modname = f"{prefix}_{stem}_{hashlib.sha1(absolute.encode()).hexdigest()[:10]}"
    spec = importlib.util.spec_from_file_location(modname, absolute)
    if spec is None or spec.loader is None:
        raise error(f"{path}: cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    folder = os.path.dirname(absolute)
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        with contextlib.redirect_stdout(prints_to if prints_to is not None else io.StringIO()):
            spec.loader.exec_module(module)
    except Exception as exc:  # the user's file failed at import: its error, one line
        sys.modules.pop(modname, None)
        what = one_line(exc) if isinstance(exc, BadInput) else \
            f"{type(exc).__name__}: {one_line(exc)}"  # a BadInput says what it is
        raise error(f"{path}: importing the file failed: {what}") from None
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
    return module
