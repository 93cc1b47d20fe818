"""A user's ``.py`` file, read and imported the way the auditor and the certifier both
need it: every problem (no such file, not .py, unreadable, a syntax error, an import
that raises) is a ``BadInput`` with one line, and nothing of the file is left behind
in ``sys.modules`` or ``sys.path`` when it fails.

The file is imported as a module of its own, under a name unique to its absolute path
(two files called ``kernel.py`` in different folders never meet), with its folder
first on ``sys.path`` meanwhile (and any folders the caller adds, such as the current
one) so that its sibling modules import as they would when Python runs the file.
``importable`` is the same arrangement for code run later (a wrapper that imports
lazily).

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
from typing import Iterator

from verify.decide.limits import one_line
from verify.errors import BadInput

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PACKAGES = tuple(os.path.join(_ROOT, p) + os.sep for p in ("impls", "laws", "verify", "papers"))


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


@contextlib.contextmanager
def importable(*folders: str | None) -> Iterator[None]:
    """Within the block each folder (None: skipped) is on ``sys.path``, in front, unless
    it already was; afterwards ``sys.path`` is as it was."""
    added = []
    for folder in reversed([f for f in folders if f]):
        if folder not in sys.path:
            sys.path.insert(0, folder)
            added.append(folder)
    try:
        yield
    finally:
        for folder in added:
            if folder in sys.path:
                sys.path.remove(folder)


def folders(*codes: types.CodeType | None) -> tuple[str, ...]:
    """The folders of the files the code objects come from (the project's packages
    skipped: they import as packages), each once, in order: what a wrapper defined
    there may import."""
    found = (os.path.dirname(os.path.abspath(c.co_filename)) for c in codes
             if c is not None and os.path.isfile(c.co_filename))
    return tuple(dict.fromkeys(f for f in found if not (f + os.sep).startswith(_PACKAGES)))


def import_file(path: str, prefix: str, *, prints_to: io.TextIOBase | None = None,
                error: type[BadInput] = BadInput, also: tuple[str, ...] = ()
                ) -> types.ModuleType:
    """Import the file as module ``{prefix}_{stem}_{hash of its absolute path}``, its
    folder and the folders ``also`` importable meanwhile. Its prints go to
    ``prints_to`` (discarded when None)."""
    read_source(path, error)
    absolute = os.path.abspath(path)
    stem = "".join(c if c.isalnum() else "_" for c in os.path.basename(path)[:-3])
    modname = f"{prefix}_{stem}_{hashlib.sha1(absolute.encode()).hexdigest()[:10]}"
    spec = importlib.util.spec_from_file_location(modname, absolute)
    if spec is None or spec.loader is None:
        raise error(f"{path}: cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        with importable(os.path.dirname(absolute), *also), \
                contextlib.redirect_stdout(prints_to if prints_to is not None else io.StringIO()):
            spec.loader.exec_module(module)
    except Exception as exc:  # the user's file failed at import: its error, one line
        sys.modules.pop(modname, None)
        what = one_line(exc) if isinstance(exc, BadInput) else \
            f"{type(exc).__name__}: {one_line(exc)}"  # a BadInput says what it is
        raise error(f"{path}: importing the file failed: {what}") from None
    return module
