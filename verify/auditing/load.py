"""Loading the function to audit from the user's file (``FILE.py:FUNC``).

The file is imported as a module of its own (its prints swallowed); every problem (no
such file, a syntax error, an import that raises, no such function) is an
``AuditError``: one line, exit status 2.

Does not cover: running the file in a separate process (the command line does that).
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
from verify.engine.interp import unwrap
from verify.errors import BadInput


class AuditError(BadInput):
    """Bad input: reported as one line on stderr, exit status 2."""


def read_source(path: str) -> str:
    """The text of a user's .py file, once it is known to exist, be readable and
    compile; ``AuditError`` (bad input) with one line otherwise."""
    if not os.path.isfile(path):
        raise AuditError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditError(f"{path}: cannot be read: {exc}") from None
    try:
        compile(source, path, "exec")
    except SyntaxError as exc:
        raise AuditError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    return source


def load_target(target: str) -> tuple[types.FunctionType, str, str]:
    """The function named by ``FILE.py:FUNC``, loaded from its file."""
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise AuditError(f"expected FILE.py:FUNC, got {target!r}")
    if not path.endswith(".py"):
        raise AuditError(f"{path}: not a .py file")
    read_source(path)
    digest = hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:10]
    stem = "".join(c if c.isalnum() else "_" for c in os.path.basename(path)[:-3])
    modname = f"lawcheck_audited_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise AuditError(f"{path}: cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    # Sibling modules import as they would when Python runs the file.
    folder = os.path.dirname(os.path.abspath(path))
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    except Exception as exc:  # the user's module failed at import
        raise AuditError(f"{path}: importing the file failed: {type(exc).__name__}: "
                         f"{one_line(exc)}") from None
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
    if not name.isidentifier() or not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items()
                       if isinstance(unwrap(v), types.FunctionType)
                       and getattr(unwrap(v), "__module__", None) == modname)
        hint = f" (functions there: {', '.join(found)})" if found else ""
        raise AuditError(f"{path}: no function named {name!r}{hint}")
    fn = unwrap(getattr(module, name))
    if not isinstance(fn, types.FunctionType):
        raise AuditError(f"{path}:{name} is not a Python function")
    return fn, path, name

