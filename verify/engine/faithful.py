"""Constructs no rebound copy of a function can follow faithfully.

An interpretation runs a *copy* of the function (``verify.engine.interp``): its own
globals dict, fresh closure cells, symbolic or high-precision values instead of Python
floats. Python differs from every such copy where the code

- writes state: a ``global`` or ``nonlocal`` assignment, an attribute set on an
  object (a module's variable switched by a helper; ``setattr``, ``delattr``,
  ``object.__setattr__`` under any name), code run from text (``exec``, ``eval``), or
  a mutable object reached from its globals, closure cells or defaults changed in
  place, a namespace dict included (``globals()[k] = v``), directly or by calling a
  bound method, a ``functools.partial`` or a callable object that holds it
  (``verify.engine.mutation``): the copies share such an object with Python, but a
  proof treats each call as a function of its arguments alone;
- asks what a value *is* rather than what it equals: ``is`` / ``is not`` between values
  (``max(a, b) is a``; a test against ``None``, ``True`` or ``False`` is fine) or
  ``operator.is_`` / ``is_not``, type tests (``isinstance``, ``type``, ``issubclass``,
  ``x.__class__``, ``hasattr`` or ``getattr`` on anything but a module, class or
  function global: ``hasattr(a, "hex")`` tells a Python float from an exact rational),
  or the text or address of a value (``repr``, ``str``, ``format``, ``id``, an f-string
  whose text is not only a raised error's message). Such a builtin is found under any
  name it is reached by (``builtins.type``, ``from operator import is_ as same``, a
  default or closure value), not when it is handed over at run time.

``refusal(fn)`` names the first such construct in ``fn`` or in any user function it
reaches (globals, closure cells, defaults, user modules it names, the functions held in
tuples, lists and dicts among those, and what a partial,
a bound method or a callable object it reaches runs), or None; a callable object of a
user class whose ``__call__`` is not a plain method is refused as such. The prover
and the searcher refuse such a function (``unknown``, with the reason); the
plain-Python runner, which calls the original, still runs it.
"""
from __future__ import annotations

import dis
import types
from typing import Any

import builtins
import functools
import sys
import inspect
import operator

from verify.engine.interp import call_method, library, own
from verify.engine.mutation import class_methods, held_state_write, state_write

_TYPE_WORDS = {"isinstance": "a type test (isinstance)", "type": "a type test (type)",
               "issubclass": "a type test (issubclass)", "repr": "the text of a value (repr)",
               "str": "the text of a value (str)", "format": "the text of a value (format)",
               "id": "the address of a value (id)", "ascii": "the text of a value (ascii)",
               "setattr": "setattr (an attribute set on an object)",
               "delattr": "delattr (an attribute deleted from an object)",
               "exec": "code run from text (exec)", "eval": "code run from text (eval)"}
_SAFE_IS = (None, True, False, Ellipsis)
# builtins that ask what a value is, by identity (under whatever name they are reached)
_WORDS = {id(k): (k, why) for k, why in (
    (isinstance, "a type test (isinstance)"), (type, "a type test (type)"),
    (issubclass, "a type test (issubclass)"), (repr, "the text of a value (repr)"),
    (str, "the text of a value (str)"), (format, "the text of a value (format)"),
    (ascii, "the text of a value (ascii)"), (id, "the address of a value (id)"),
    (operator.is_, "an identity test (operator.is_)"),
    (operator.is_not, "an identity test (operator.is_not)"),
    (setattr, "setattr (an attribute set on an object)"),
    (delattr, "delattr (an attribute deleted from an object)"),
    (object.__setattr__, "object.__setattr__ (an attribute set on an object)"),
    (object.__delattr__, "object.__delattr__ (an attribute deleted from an object)"),
    (exec, "code run from text (exec)"), (eval, "code run from text (eval)"))}
# fine on a module, class or function (feature tests), a type test on a value
_ATTRIBUTE_TESTS = {id(hasattr): "hasattr", id(getattr): "getattr"}
# what an f-string's text may flow through on its way to a raise
_TO_RAISE = {"BUILD_STRING", "FORMAT_VALUE", "LOAD_CONST", "LOAD_FAST", "LOAD_DEREF",
             "LOAD_GLOBAL", "LOAD_ATTR", "LOAD_METHOD", "PRECALL", "CALL", "KW_NAMES",
             "CALL_FUNCTION", "CALL_FUNCTION_KW", "CALL_METHOD", "PUSH_NULL", "COPY",
             "BINARY_OP", "LOAD_ASSERTION_ERROR", "CACHE", "EXTENDED_ARG"}
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
        elif op in ("LOAD_ATTR", "LOAD_METHOD") and ins.argval == "__class__":
            out = f"{where} uses a type test (__class__)"
        elif op == "FORMAT_VALUE" and not _only_raised(code, ins.offset):
            out = f"{where} uses the text of a value (an f-string)"
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
        elif isinstance(obj, dict):  # a table of functions (ops["f"](x))
            stack.extend(v for v in obj.values()
                         if callable(v) or isinstance(v, (tuple, list, dict)))
        elif isinstance(obj, functools.partial) or isinstance(obj, types.MethodType) \
                or isinstance(obj, types.BuiltinMethodType) or call_method(obj) is not None:
            why = held_state_write(obj)
            if why:
                return f"{_name(obj)}: {why}"
            stack.extend(_held_callables(obj))
        elif callable(obj) and _user_class(type(obj)):
            return (f"the callable {type(obj).__name__} object's __call__ is not a plain "
                    "method, which no rebound copy follows")
        elif isinstance(obj, types.FunctionType) and own(obj):
            # the checker's wrappers: only what they were handed (the user's function)
            stack.extend(obj.__defaults__ or ())
            stack.extend(closure_values(obj))
        elif isinstance(obj, types.FunctionType) and not library(obj):
            why = (_code_refusal(obj.__code__, f"{obj.__qualname__}")
                   or _reached_words(obj) or state_write(obj))
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


def _user_class(cls: type) -> bool:
    """A class defined in user code (not a library's, not the checker's own)."""
    if isinstance(cls, type) and cls.__module__ in ("builtins", "types", "functools"):
        return False
    module = sys.modules.get(getattr(cls, "__module__", ""), None)
    return module is not None and not library(module)


def _name(obj: Any) -> str:
    if isinstance(obj, functools.partial):
        return f"functools.partial({getattr(obj.func, '__qualname__', repr(obj.func))}, …)"
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)):
        owner = getattr(obj, "__self__", None)
        return f"the bound method {type(owner).__name__}.{obj.__name__}"
    return f"the callable {type(obj).__name__} object"


def _held_callables(obj: Any) -> list[Any]:
    """What calling a partial, a bound method or a callable object runs, and the values
    it holds: its function, bound arguments, the methods of its class."""
    if isinstance(obj, functools.partial):
        return [obj.func, *obj.args, *obj.keywords.values()]
    if isinstance(obj, types.MethodType):
        return [obj.__func__]
    if isinstance(obj, types.BuiltinMethodType):
        return []
    return list(class_methods(obj))


def _only_raised(code: types.CodeType, offset: int) -> bool:
    """Whether the text formatted at ``offset`` only builds the message of a raise."""
    for ins in dis.get_instructions(code):
        if ins.offset <= offset:
            continue
        if ins.opname == "RAISE_VARARGS":
            return True
        if ins.opname not in _TO_RAISE:
            return False
    return False


def _word(value: Any) -> str | None:
    hit = _WORDS.get(id(value))
    return hit[1] if hit is not None and hit[0] is value else None


def _resolve(value: Any, attr: str) -> tuple[bool, Any]:
    if not isinstance(value, (types.ModuleType, type)):
        return False, None
    try:
        return True, inspect.getattr_static(value, attr)
    except AttributeError:
        return False, None


def _plain_global(ins: dis.Instruction, fn: types.FunctionType) -> bool:
    """Whether ``ins`` loads a module, class or function global (not a value)."""
    if ins.opname != "LOAD_GLOBAL":
        return False
    known, value = _global(fn, ins.argval)
    return known and isinstance(value, (types.ModuleType, type, types.FunctionType,
                                        types.BuiltinFunctionType))


def _global(fn: types.FunctionType, name: str) -> tuple[bool, Any]:
    g = fn.__globals__
    if name in g:
        return True, g[name]
    b = g.get("__builtins__", builtins)
    b = vars(b) if isinstance(b, types.ModuleType) else b
    return (name in b), b.get(name)


def _reached_words(fn: types.FunctionType) -> str | None:
    """A type, identity or text builtin ``fn`` reaches under another name: through a
    global or an attribute chain on one (``operator.is_``, ``builtins.type``), a default
    or a closure value; ``hasattr`` / ``getattr`` whose object is not a module, class or
    function global."""
    where = fn.__qualname__
    for value in list(fn.__defaults__ or ()) + list((fn.__kwdefaults__ or {}).values()) \
            + closure_values(fn):
        why = _word(value) or ("a type test (hasattr / getattr)"
                               if id(value) in _ATTRIBUTE_TESTS else None)
        if why:
            return f"{where} uses {why} (a default or closure value)"
    codes = [fn.__code__]
    while codes:
        code = codes.pop()
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        ins = list(dis.get_instructions(code))
        ins = [i for i in ins if i.opname not in ("CACHE", "PRECALL", "PUSH_NULL")]
        for k, i in enumerate(ins):
            if i.opname not in ("LOAD_GLOBAL", "LOAD_NAME"):
                continue
            known, value = _global(fn, i.argval)
            j = k
            while known:
                why = _word(value)
                if why:
                    return f"{where} uses {why}"
                name = _ATTRIBUTE_TESTS.get(id(value))
                if name:
                    after = ins[j + 1:j + 3]
                    if len(after) < 2 or not _plain_global(after[0], fn) \
                            or after[1].opname != "LOAD_CONST":
                        return f"{where} uses a type test ({name} on a value)"
                if j + 1 < len(ins) and ins[j + 1].opname in ("LOAD_ATTR", "LOAD_METHOD"):
                    j += 1
                    known, value = _resolve(value, ins[j].argval)
                else:
                    break
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
