"""Loading the function to audit from the user's file (``FILE.py:FUNC``).

The file is imported as a module of its own (``verify.userfiles``, its prints
swallowed); every problem (no such file, a syntax error, an import that raises, no such
function) is an ``AuditError``: one line, exit status 2.

Does not cover: running the file in a separate process (the command line does that).
"""
from __future__ import annotations

import functools
import inspect
import linecache
import types
from typing import Any

from verify import userfiles
from verify.engine.interp import call_method, unwrap
from verify.engine.mutation import AUDITED_OBJECT
from verify.errors import BadInput


class AuditError(BadInput):
    """Bad input: reported as one line on stderr, exit status 2."""


def required_parameters(sig: inspect.Signature, label: str) -> list[inspect.Parameter]:
    """The parameters a call must give, in order; AuditError for *args/**kwargs and for
    a keyword-only parameter without a default (``label`` names the function)."""
    params = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise AuditError(f"{label} takes *args/**kwargs: not supported (give it "
                             "one or two named parameters)")
        if p.default is p.empty:
            if p.kind == p.KEYWORD_ONLY:
                raise AuditError(f"{label}: keyword-only parameter {p.name!r} without "
                                 "a default is not supported")
            params.append(p)
    return params


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
        fn = as_function(fn, path, name, modname)
    return fn, path, name


_TARGET = AUDITED_OBJECT


def as_function(obj: Any, path: str, name: str, modname: str) -> types.FunctionType:
    """A ``functools.partial``, a bound method or a callable object as a plain function
    of its required positional parameters, which calls it (so that every reading of
    the function follows the object as it follows a call inside a function)."""
    if not (isinstance(obj, (functools.partial, types.MethodType))
            or call_method(obj) is not None):
        raise AuditError(f"{path}:{name} is not a Python function (nor a functools.partial, "
                         "a bound method or an object with a __call__ method)")
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        raise AuditError(f"{path}:{name}: its parameters cannot be read") from None
    params = required_parameters(sig, f"{path}:{name}")
    names = [p.name for p in params]
    if _TARGET in names:
        raise AuditError(f"{path}:{name}: a parameter is named {_TARGET!r}")
    filename = f"<{path}:{name}>"
    source = (f"def {name}({', '.join(names)}):\n"
              f"    return {_TARGET}({', '.join(names)})\n")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {_TARGET: obj, "__name__": modname}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own text
    fn = namespace[name]
    fn.__annotations__ = {p.name: p.annotation for p in params
                          if p.annotation is not p.empty}
    return fn
