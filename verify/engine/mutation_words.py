"""The words ``verify.engine.mutation`` reads a function's source with: the methods that
change their object in place, the library functions that change their first argument,
and the calls whose result is a new object whatever their arguments; and what it takes
as a mutable value."""
from __future__ import annotations

import numbers
import types
from typing import Any

MUTATING_METHODS = {
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
    "setdefault", "add", "discard", "sort", "reverse", "difference_update",
    "intersection_update", "symmetric_difference_update", "appendleft", "extendleft",
    "popleft", "rotate", "move_to_end", "fill", "resize", "put", "itemset", "partition",
    "__setitem__", "__delitem__", "__iadd__", "__isub__", "__imul__", "__ior__",
    "__iand__", "__setattr__", "__delattr__"}
# library functions that change their first argument
MUTATING_CALLS = {
    "shuffle", "heappush", "heappop", "heapify", "heapreplace", "heappushpop", "insort",
    "insort_left", "insort_right", "copyto", "place", "putmask", "fill_diagonal",
    "setitem", "delitem", "setattr", "delattr", "iadd", "iconcat", "isub", "imul",
    "put", "put_along_axis", "at"}
# calls whose result is a new object, whatever their arguments
FRESH_CALLS = {"list", "dict", "set", "tuple", "frozenset", "sorted", "len", "sum", "float",
               "int", "bool", "str", "repr", "abs", "round", "deepcopy", "copy", "array",
               "asarray", "fsum", "prod", "any", "all", "isinstance", "range", "enumerate",
               "zip", "reversed"}

_IMMUTABLE = (numbers.Number, str, bytes, type(None), frozenset, range, types.FunctionType,
              types.BuiltinFunctionType, types.ModuleType, type,
              types.MethodType, types.CodeType)


def mutable(value: Any) -> bool:
    """Whether ``value`` may change in place (a tuple when something in it may)."""
    if isinstance(value, tuple):
        return any(mutable(v) for v in value)
    return not isinstance(value, _IMMUTABLE)
