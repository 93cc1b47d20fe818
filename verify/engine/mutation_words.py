"""The words ``verify.engine.mutation`` reads a function's source with: the methods that
change their object in place, the library functions that change their first argument,
and the calls whose result is a new object whatever their arguments; and what it takes
as a mutable value, and as library code or the checker's own (reviewed, not walked)."""
from __future__ import annotations

import numbers
import os
import types
from typing import Any

from verify.engine.interp import is_library_file, is_library_module

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


_OWN = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), pkg) + os.sep for pkg in ("verify", "laws"))


def own(fn: types.FunctionType) -> bool:
    """The checker's own code (its law templates, the auditor's wrappers)."""
    return os.path.realpath(fn.__code__.co_filename).startswith(_OWN)


def library(obj: Any) -> bool:
    """Library code, or the checker's own: reviewed here, and read by each
    interpretation as written."""
    if isinstance(obj, types.ModuleType):
        if is_library_module(obj):
            return True
        filename = getattr(obj, "__file__", None) or ""
    else:
        filename = obj.__code__.co_filename
        if is_library_file(filename):
            return True
    return os.path.realpath(filename).startswith(_OWN)
