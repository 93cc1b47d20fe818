"""Loading the function to audit from the user's file (``FILE.py:FUNC``).

The file is imported as a module of its own (``verify.userfiles``, its prints
swallowed); every problem (no such file, a syntax error, an import that raises, no such
function) is an ``AuditError``: one line, exit status 2.

Does not cover: running the file in a separate process (the command line does that).
"""
from __future__ import annotations

import types

from verify import userfiles
from verify.engine.interp import unwrap
from verify.errors import BadInput


class AuditError(BadInput):
    """Bad input: reported as one line on stderr, exit status 2."""


def read_source(path: str) -> str:
    """The text of a user's .py file, once it is known to exist, be readable and
    compile; ``AuditError`` (bad input) with one line otherwise."""
    return userfiles.read_source(path, AuditError)


def load_target(target: str) -> tuple[types.FunctionType, str, str]:
    """The function named by ``FILE.py:FUNC``, loaded from its file."""
    path, name = userfiles.split_target(target, what="FILE.py:FUNC", error=AuditError)
    module = userfiles.import_file(path, "lawcheck_audited", error=AuditError)
    modname = module.__name__
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
