"""Loading a user's binding file: ``load_binding("FILE.py:NAME")`` returns the
``KernelSpec`` it binds (what ``certify FILE.py[:NAME]`` runs).

The file is executed in this process with its own folder and the current folder
importable (``from mykernels import softmax`` works without a ``sys.path`` line; the
binding keeps both importable while its wrapper runs, binding.py), its prints sent to
stderr. NAME may be a spec or a function callable without arguments that returns one
(``def binding(fn=my_kernel): ...``). A spec made by ``bind`` without ``name=`` is
named after the file and variable (naming.py: ``my_softmax``, ``my_softmax.NAME``,
``user.softmax`` for a file named like a project kernel).

Raises ``BadInput`` with a one-line message for: a missing or unreadable file, a file
that is not .py, a syntax error, a file that fails at import (an unknown reference or
option, a bad outputs map: ``bind`` raises those), no such name, and a name that is not
(and does not return) a KernelSpec. Does not sandbox the file: it runs with this
process's rights, so run it in a child process for untrusted code.
"""
from __future__ import annotations

import dataclasses
import inspect
import os
import sys
from typing import Any, Callable

from impls.spec import KernelSpec
from verify import userfiles
from verify.certification import naming
from verify.decide.limits import one_line
from verify.errors import BadInput

DEFAULT_NAME = "KERNEL"


def load_binding(target: str) -> KernelSpec:
    """The ``KernelSpec`` named by ``FILE.py:NAME`` (``FILE.py`` alone: its ``KERNEL``);
    see the module docstring."""
    path, name = userfiles.split_target(target, what="FILE.py or FILE.py:NAME",
                                        default=DEFAULT_NAME)
    module = userfiles.import_file(path, "lawcheck_bound", prints_to=sys.stderr,
                                   also=(os.getcwd(),))
    if not name.isidentifier() or not hasattr(module, name):
        specs = sorted(k for k, v in vars(module).items() if isinstance(v, KernelSpec))
        hint = f" (kernel specs there: {', '.join(specs)})" if specs else \
            " (bind one with verify.certification.binding.bind)"
        raise BadInput(f"{path}: no name {name!r}{hint}")
    with userfiles.importable(os.path.dirname(os.path.abspath(path)), os.getcwd()):
        spec = _as_spec(getattr(module, name), path, name)
    return _named(spec, path, name)


def _named(spec: KernelSpec, path: str, name: str) -> KernelSpec:
    """``spec`` renamed after the file and variable when ``bind`` derived its name."""
    running = getattr(getattr(spec.bounding.bound, "__self__", None), "running", None)
    if running is None or getattr(running, "named", True):
        return spec
    return dataclasses.replace(spec, name=naming.from_file(path, name, DEFAULT_NAME))


def _as_spec(value: Any, path: str, name: str) -> KernelSpec:
    if isinstance(value, KernelSpec):
        return value
    if callable(value) and not isinstance(value, type) and _no_required_arguments(value):
        try:
            made = value()
        except Exception as exc:  # the user's binding function failed: its error, one line
            what = one_line(exc) if isinstance(exc, BadInput) else \
                f"{type(exc).__name__}: {one_line(exc)}"
            raise BadInput(f"{path}:{name}() failed: {what}") from None
        if isinstance(made, KernelSpec):
            return made
        raise BadInput(f"{path}:{name}() returned a {type(made).__name__}, not a KernelSpec "
                       "(make one with verify.certification.binding.bind)")
    raise BadInput(f"{path}:{name} is a {type(value).__name__}, not a KernelSpec "
                   "(make one with verify.certification.binding.bind)")


def _no_required_arguments(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in params)
