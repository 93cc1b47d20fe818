"""The state a function keeps between calls, saved once and put back before each run.

A function that writes state (``verify.engine.faithful``) gives a result that depends on
the calls before it: after 49 calls a counter in a closure dict may switch the result.
A difference plain Python sees at a point is a counterexample only if it is seen on the
function as it was handed over, so ``kept(fns)`` saves, for ``fns`` and every user
function they reach (globals they name, closure cells, defaults, user modules), the
bindings of those globals and cells and a deep copy of each mutable object among them,
each user function's attributes (``f.calls``), the objects a ``functools.partial``, a
bound method or a callable object holds, and the names of each module's globals (a name
added later, ``globals()[k] = v``, is removed); ``reset()`` puts all of it back
(objects restored in place, so every copy of the function that shares them sees the
restored contents).

Does not cover: state outside what the functions reach by name (a library's own state,
a file), and objects that cannot be deep-copied or restored in place; ``reset()``
returns False when such an object was met, and a refutation must then not be
reported.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import types
from collections import deque
from typing import Any, Callable, Iterator

from verify.engine.faithful import closure_values, code_names
from verify.engine.interp import call_method, library, own
from verify.engine.mutation import class_methods
from verify.engine.mutation_words import mutable

_MAX_OBJECTS = 400
_ACTIVE: list["Snapshot"] = []


class Snapshot:
    """Bindings and object contents saved from the functions given."""

    def __init__(self, fns: list[Any]) -> None:
        self.restores: list[Callable[[], None]] = []
        self.complete = True
        self._saved: set[int] = set()
        self._walk(fns)

    def _walk(self, fns: list[Any]) -> None:
        seen: set[int] = set()
        stack = list(fns)
        while stack and len(seen) < _MAX_OBJECTS:
            obj = stack.pop()
            obj = getattr(obj, "fn", obj)
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, (tuple, list)) and not isinstance(obj, types.FunctionType):
                stack.extend(v for v in obj if callable(v))
            if isinstance(obj, dict):
                stack.extend(v for v in obj.values() if callable(v))
            held = _held(obj)
            if held is not None:
                for v in held:
                    if isinstance(v, _Held):
                        self._contents(v.obj, force=True)
                    else:
                        self._contents(v)
                        stack.append(v)
                continue
            if not isinstance(obj, types.FunctionType) or (library(obj) and not own(obj)):
                if isinstance(obj, types.ModuleType) and not library(obj):
                    for name, v in vars(obj).items():
                        if not name.startswith("__"):
                            self._binding(vars(obj), name)
                            stack.append(v)
                continue
            if not own(obj):
                names = code_names(obj.__code__)
                g = obj.__globals__
                self._keys(g)
                self._contents(obj.__dict__, force=True)  # attributes set on the function
                for name in names & set(g):
                    self._binding(g, name)
                    stack.append(g[name])
                for cell in obj.__closure__ or ():
                    self._cell(cell)
            for v in list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values()):
                self._contents(v)
                stack.append(v)
            stack.extend(closure_values(obj))

    def _binding(self, namespace: dict, name: str) -> None:
        value = namespace[name]
        self.restores.append(lambda: namespace.__setitem__(name, value))
        self._contents(value)

    def _cell(self, cell: types.CellType) -> None:
        try:
            value = cell.cell_contents
        except ValueError:
            return
        self.restores.append(lambda: setattr(cell, "cell_contents", value))
        self._contents(value)

    def _keys(self, namespace: dict) -> None:
        """Names added to a module's globals later (``globals()[k] = v``) are removed."""
        if id(namespace) in self._saved:
            return
        self._saved.add(id(namespace))
        before = set(namespace)
        self.restores.append(lambda: [namespace.pop(k) for k in set(namespace) - before])

    def _contents(self, value: Any, force: bool = False) -> None:
        if not force and (not mutable(value) or id(value) in self._saved or callable(value)
                          or isinstance(value, types.ModuleType)):
            return
        if id(value) in self._saved:
            return
        self._saved.add(id(value))
        if isinstance(value, tuple):
            for v in value:
                self._contents(v)
            return
        try:
            saved = copy.deepcopy(value)
            restore = _restorer(value)
        except Exception:  # noqa: BLE001 - anything that cannot be copied is not restored
            restore = None
        if restore is None:
            self.complete = False
            return
        self.restores.append(lambda: restore(copy.deepcopy(saved)))

    def restore(self) -> bool:
        for put_back in self.restores:
            put_back()
        return self.complete


def _held(obj: Any) -> list[Any] | None:
    """What a partial, a bound method or a callable object holds (its bound arguments,
    its object, its attributes' owner), or None for anything else."""
    if isinstance(obj, functools.partial):
        return [obj.func, *obj.args, *obj.keywords.values()]
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)):
        owner = getattr(obj, "__self__", None)
        if owner is None or isinstance(owner, (types.ModuleType, type)):
            return []
        return [obj.__func__, _Held(owner)] if isinstance(obj, types.MethodType) \
            else [_Held(owner)]
    if call_method(obj) is not None:
        return [_Held(obj), *class_methods(obj)]
    return None


class _Held:
    """An object a callable holds, saved even though it is callable itself."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj


def _restorer(obj: Any) -> Callable[[Any], None] | None:
    """How to give ``obj`` the contents of a copy of itself, in place."""
    if isinstance(obj, (list, bytearray)):
        return lambda new: obj.__setitem__(slice(None), new)
    if isinstance(obj, dict):
        return lambda new: (obj.clear(), obj.update(new))
    if isinstance(obj, set):
        return lambda new: (obj.clear(), obj.update(new))
    if isinstance(obj, deque):
        return lambda new: (obj.clear(), obj.extend(new))
    if hasattr(obj, "shape") and hasattr(obj, "__setitem__"):  # numpy / torch arrays
        return lambda new: obj.__setitem__(Ellipsis, new)
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return lambda new: (obj.__dict__.clear(), obj.__dict__.update(vars(new)))
    return None


@contextlib.contextmanager
def kept(fns: list[Any]) -> Iterator[Snapshot]:
    """While inside, ``reset()`` puts back the state ``fns`` had on entry (unless an
    outer ``kept`` is already active: the outer one is the fresh state); put back on
    exit too."""
    if _ACTIVE:
        yield _ACTIVE[0]
        return
    snap = Snapshot(fns)
    _ACTIVE.append(snap)
    try:
        yield snap
    finally:
        _ACTIVE.remove(snap)
        snap.restore()


def reset() -> bool:
    """Put back the saved state; False when some of it could not be saved (or nothing
    is kept), so that a difference seen next is not reproducible."""
    return all(s.restore() for s in _ACTIVE) and bool(_ACTIVE)
