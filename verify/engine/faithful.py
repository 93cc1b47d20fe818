"""Constructs no rebound copy of a function can follow faithfully.

An interpretation runs a *copy* of the function (``verify.engine.interp``): its own
globals dict, fresh closure cells, symbolic or high-precision values instead of Python
floats. Python differs from every such copy where the code

- writes state: a ``global`` or ``nonlocal`` assignment, an attribute set on an
  object (a module's variable switched by a helper), or a mutable object reached from
  its globals, closure cells or defaults changed in place (``verify.engine.mutation``):
  the copies share such an object with Python, but a proof treats each call as a
  function of its arguments alone;
- asks what a value *is* rather than what it equals: ``is`` / ``is not`` between values
  (``max(a, b) is a``; a test against ``None``, ``True`` or ``False`` is fine), type
  tests (``isinstance``, ``type``, ``issubclass``), or the text or address of a value
  (``repr``, ``str``, ``format``, ``id``; an f-string is not looked for, since most
  only build error messages).

``refusal(fn)`` names the first such construct in ``fn`` or in any user function it
reaches (globals, closure cells, defaults, user modules it names), or None. The prover
and the searcher refuse such a function (``unknown``, with the reason); the
plain-Python runner, which calls the original, still runs it.
"""
from __future__ import annotations

import dis
import types
from typing import Any

from verify.engine.mutation import library, own, state_write

_TYPE_WORDS = {"isinstance": "a type test (isinstance)", "type": "a type test (type)",
               "issubclass": "a type test (issubclass)", "repr": "the text of a value (repr)",
               "str": "the text of a value (str)", "format": "the text of a value (format)",
               "id": "the address of a value (id)", "ascii": "the text of a value (ascii)"}
_SAFE_IS = (None, True, False, Ellipsis)
_CACHE: dict[types.CodeType, str | None] = {}


def _code_refusal(code: types.CodeType, where: str) -> str | None:
    known = _CACHE.get(code, "")
    if known != "":
        return known
    out = None
    prev: Any = None
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            out = f"{where} writes the module global {ins.argval!r}"
        elif op in ("STORE_DEREF", "DELETE_DEREF") and ins.argval in code.co_freevars:
            out = f"{where} writes the enclosing variable {ins.argval!r} (nonlocal)"
        elif op in ("STORE_ATTR", "DELETE_ATTR"):
            out = f"{where} sets the attribute {ins.argval!r} of an object"
        elif op == "IS_OP" and not (prev is not None and prev.opname == "LOAD_CONST"
                                    and any(prev.argval is c for c in _SAFE_IS)):
            out = f"{where} compares identities (is / is not)"
        elif op in ("LOAD_GLOBAL", "LOAD_NAME") and ins.argval in _TYPE_WORDS:
            out = f"{where} uses {_TYPE_WORDS[ins.argval]}"
        if out:
            break
        prev = ins
    if out is None:
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                out = _code_refusal(const, where)
                if out:
                    break
    _CACHE[code] = out
    return out


def refusal(fn: Any) -> str | None:
    """Why no rebound copy of ``fn`` computes what Python computes, or None."""
    seen: set[int] = set()
    stack = [fn]
    while stack and len(seen) < 400:
        obj = stack.pop()
        obj = getattr(obj, "fn", obj)  # a @triton.jit function's plain Python
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, (tuple, list)):
            stack.extend(obj)
        elif isinstance(obj, types.FunctionType) and own(obj):
            # the checker's wrappers: only what they were handed (the user's function)
            stack.extend(obj.__defaults__ or ())
            stack.extend(closure_values(obj))
        elif isinstance(obj, types.FunctionType) and not library(obj):
            why = _code_refusal(obj.__code__, f"{obj.__qualname__}") or state_write(obj)
            if why:
                return why
            names = code_names(obj.__code__)
            stack.extend(v for k, v in obj.__globals__.items() if k in names)
            stack.extend(obj.__defaults__ or ())
            stack.extend(closure_values(obj))
        elif isinstance(obj, types.ModuleType) and not library(obj):
            stack.extend(v for v in vars(obj).values()
                         if isinstance(v, types.FunctionType) or hasattr(v, "fn"))
    return None


def code_names(code: types.CodeType) -> set[str]:
    """Global and attribute names used by the code and its nested code objects."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= code_names(c)
    return names


def closure_values(fn: types.FunctionType) -> list[Any]:
    """The values in ``fn``'s closure cells (an empty cell is left out)."""
    out = []
    for cell in fn.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:
            pass
    return out
