"""Does the audited function hash values? ``set``, ``dict`` keyed by values,
``Counter``, ``statistics.mode``: under the z3 and the batched float interpretations,
numbers that are equal would be different keys, so such a function goes to the searcher
with the reason stated.

The scan covers exactly what the function can reach: its own body (nested functions
and lambdas included) and, transitively, the user functions it reaches through its
globals, its closure cells and attributes of user modules it imports. An unrelated
function in the same file is not scanned; a helper in another file is.

Does not cover: library code (the standard library, installed packages, the checker
itself), functions reached only through data (a function stored in a list and looked
up at run time), and hashing done by library code on behalf of the user's code other
than through the calls named in ``HASHING_CALLS``.
"""
from __future__ import annotations

import ast
import inspect
import os
import sys
import sysconfig
import textwrap
import types
from typing import Any

from verify.engine.faithful import closure_values, code_names
from verify.engine.interp import unwrap
from verify.auditing.signature import call_name

HASHING_CALLS = {"set", "frozenset", "dict", "Counter", "defaultdict", "OrderedDict",
                 "mode", "multimode", "hash", "lru_cache", "cache"}
_LIBRARY_ROOTS = {"verify", "z3", "mpmath", "numpy", "torch", "triton", "hypothesis"}
_LIBRARY_DIRS = tuple(os.path.realpath(p) for p in {
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
    sysconfig.get_paths()["platlib"]})
MAX_FUNCTIONS = 200          # a bound on the functions followed


def hashing_constructs(fn: types.FunctionType) -> list[str]:
    """The hashing constructs in the code ``fn`` can reach, each named once."""
    found: list[str] = []
    for f in reachable_functions(fn):
        node = _function_ast(f)
        named = [f"{v.__name__}()" for v in _referenced(f)
                 if getattr(v, "__name__", None) in HASHING_CALLS]
        for what in (_hashing_in(node) if node is not None else []) + named:
            if what not in found:
                found.append(what)
    return found


def reachable_functions(fn: types.FunctionType) -> list[types.FunctionType]:
    """``fn`` and the user functions it reaches (globals, closures, module attributes),
    transitively, in the order found."""
    seen: dict[int, types.FunctionType] = {}
    stack = [unwrap(fn)]
    while stack and len(seen) < MAX_FUNCTIONS:
        f = stack.pop()
        if not isinstance(f, types.FunctionType) or id(f) in seen or not _user_code(f):
            continue
        seen[id(f)] = f
        stack.extend(_referenced(f))
    return list(seen.values())


def _referenced(f: types.FunctionType) -> list[Any]:
    names = code_names(f.__code__)
    out: list[Any] = []
    values = [f.__globals__[n] for n in names if n in f.__globals__]
    values += closure_values(f)
    for value in values:
        if isinstance(value, types.ModuleType):
            out += [getattr(value, n) for n in names if hasattr(value, n)]
        else:
            out.append(unwrap(value) if callable(value) else value)
    return [unwrap(v) for v in out if callable(v)]


def _user_code(f: types.FunctionType) -> bool:
    module = getattr(f, "__module__", None) or ""
    root = module.split(".")[0]
    if root in _LIBRARY_ROOTS or root in sys.stdlib_module_names:
        return False
    path = f.__code__.co_filename
    if not path or path.startswith("<"):
        return False
    real = os.path.realpath(path)
    return not real.startswith(_LIBRARY_DIRS)


def _function_ast(f: types.FunctionType):
    """The AST of ``f``'s own definition (a def, or the lambda on its line)."""
    try:
        source = textwrap.dedent(inspect.getsource(f))
    except (OSError, TypeError):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a lambda inside an expression that spans lines
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == f.__name__:
            return node
    lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
    return lambdas[0] if f.__name__ == "<lambda>" and lambdas else tree


def _hashing_in(node) -> list[str]:
    found = []
    for n in ast.walk(node):
        what = None
        if isinstance(n, ast.Call) and call_name(n) in HASHING_CALLS:
            what = call_name(n) + "()"
        elif isinstance(n, (ast.Set, ast.SetComp)):
            what = "a set"
        elif isinstance(n, ast.DictComp):
            what = "a dict comprehension"
        elif isinstance(n, ast.Dict) and any(k is not None and not isinstance(k, ast.Constant)
                                             for k in n.keys):
            what = "a dict keyed by values"
        if what and what not in found:
            found.append(what)
    return found


