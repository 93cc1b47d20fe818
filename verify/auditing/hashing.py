"""Does the audited function hash values? ``set``, ``dict`` keyed by values,
``Counter``, ``statistics.mode``: under the z3 and the batched float interpretations,
numbers that are equal would be different keys, so such a function goes to the searcher
with the reason stated.
"""
from __future__ import annotations

import ast
import inspect
import types

from verify.auditing.signature import call_name, function_node

_HASHING_CALLS = {"set", "frozenset", "dict", "Counter", "defaultdict", "OrderedDict",
                  "mode", "multimode", "hash", "lru_cache", "cache"}


def hashing_constructs(fn: types.FunctionType) -> list[str]:
    """Constructs in the function's file that hash values (the z3 and batched float
    interpretations would treat equal numbers as different keys)."""
    try:
        source = inspect.getsource(inspect.getmodule(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        node = function_node(fn)
        if node is None:
            return []
        tree = node
    found = []
    for n in ast.walk(tree):
        what = None
        if isinstance(n, ast.Call) and call_name(n) in _HASHING_CALLS:
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

