"""Run one Python function under several interpretations.

A law side or a combine is ordinary Python over a small vocabulary (``tl.maximum``,
``tl.exp``, ``tl.where``, ``math.*``, ``max``/``min``/``abs``, arithmetic, tuples). A
``@triton.jit`` function is accepted as-is: its ``.fn`` is plain Python. ``rebind``
copies a function with those global names pointing at another interpretation's
namespace, recursively for the project functions it calls (through globals and
closures), so the code that runs is the code that was written. A ``functools.partial``
is copied with its function rebound and its arguments read by the rule below; a bound
method of a user class and a callable object (an instance of a user class with a
``__call__``) are seen through a read-only proxy whose methods run rebound, with the
proxy as ``self``, and whose attributes are read by the same rule (an attribute set
through it raises ``Unsupported``; a method that sets one is refused before any copy
runs, see ``verify.engine.faithful``). Attributes set on a function (``f.scale = 2.0``
after its ``def``) are copied onto its rebound copy.

One rule for numbers written in the code: a Python float (a literal in the body, a
module global, a closure cell or a default argument) means the exact double it denotes,
the value the user's Python program computes with. ``0.1`` is
0.1000000000000000055511151231257827…, as an exact rational in z3 and in the exact
interpretation, as an mpf holding exactly that double in mpmath (exact at every working
precision of 53 bits or more, so no precision is frozen in), and as itself in torch and
numpy (rounded to the tensor's dtype there, as Python does). Arithmetic between two
literals then happens in the interpretation, and so does arithmetic the compiler folded:
``0.1 * 3`` in the source is the double 0.30000000000000004 in the code object, which
the real-valued readings (z3, mpmath, exact) read back as 3 · 0.1 exactly, the value
``C * 3`` has for a global ``C = 0.1`` (see ``verify.engine.folding`` and its limits).

Library code is recognised by where it lives (the standard library, site-packages,
built-in modules), never by its module's name, so a user module named ``z3helpers`` or
``numpy_utils`` is rebound like any other user code.
"""
from __future__ import annotations

import functools
import math
import os
import sysconfig
import textwrap
import types
from fractions import Fraction
from typing import Any, Callable

from verify.engine import floordiv
from verify.engine.folding import folded_constants
from verify.engine.recursion import depth_limited

# mpf gains Python's //, % and divmod (it has no // of its own): see floordiv.
floordiv.install()


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib", "purelib", "platlib")
            if paths.get(k)}
    dirs.add(os.path.realpath(os.path.dirname(os.__file__)))
    return tuple(d.rstrip(os.sep) + os.sep for d in dirs)


_LIBRARY_DIRS = _library_dirs()
# Code objects of rebound @triton.jit functions (and the code nested in them): there
# ``/`` gives ±∞ or NaN instead of raising.
JIT_CODES: set[types.CodeType] = set()


# Code objects of the plain functions behind @triton.jit functions, recorded when they
# are unwrapped: a caller that unwraps first (the auditor) must not lose the semantics.
JIT_SOURCES: set[types.CodeType] = set()


def _add_jit_code(code: types.CodeType) -> None:
    JIT_CODES.add(code)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _add_jit_code(const)
_FILE_VERDICTS: dict[str, bool] = {}


def is_library_file(filename: str | None) -> bool:
    """Whether code from ``filename`` is library code (stdlib, site-packages, frozen or
    built-in), by its location on disk."""
    if not filename:
        return True
    known = _FILE_VERDICTS.get(filename)
    if known is None:
        if filename.startswith("<"):  # <frozen ...>, <string>: frozen stdlib or exec'd
            known = filename.startswith("<frozen")
        else:
            known = os.path.realpath(filename).startswith(_LIBRARY_DIRS)
        _FILE_VERDICTS[filename] = known
    return known


def is_library_module(module: types.ModuleType) -> bool:
    """A module is library code when it has no source file (built-in) or its file lies
    in the standard library or site-packages."""
    return is_library_file(getattr(module, "__file__", None))


class Namespace(types.SimpleNamespace):
    """A stand-in for ``tl`` or ``math``; unknown names give a clear error."""

    def __init__(self, label: str, fallback: Any = None, **kw: Any) -> None:
        if label == "tl":
            for word in ("maximum", "minimum"):
                if callable(kw.get(word)):
                    kw[word] = _nan_keyword(kw[word])
            if "maximum" in kw or "minimum" in kw:
                kw.setdefault("PropagateNan", PROPAGATE_NAN)
        super().__init__(**kw)
        self._label = label
        self._fallback = fallback  # structural names (np.empty, np.array) pass through

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._fallback is not None and name in _STRUCTURAL:
            return getattr(self._fallback, name)
        raise UnmodelledWord(f"{self._label}.{name}")


# Triton's ``tl.PropagateNan``: every reading's maximum/minimum propagates a NaN operand,
# ALL's meaning, and so reads NONE (where Triton leaves NaN unspecified) the same way.
PROPAGATE_NAN = types.SimpleNamespace(NONE="PropagateNan.NONE", ALL="PropagateNan.ALL")


def _nan_keyword(word: Callable) -> Callable:
    """``word(a, b)`` taking Triton's ``propagate_nan=`` keyword as well."""
    def with_policy(a: Any, b: Any, *, propagate_nan: Any = PROPAGATE_NAN.NONE) -> Any:
        if propagate_nan not in (PROPAGATE_NAN.NONE, PROPAGATE_NAN.ALL):
            raise Unsupported(f"propagate_nan={propagate_nan!r} is not tl.PropagateNan.NONE "
                              "or tl.PropagateNan.ALL")
        return word(a, b)
    with_policy.__name__ = getattr(word, "__name__", "maximum")
    with_policy.__doc__ = getattr(word, "__doc__", None)
    return with_policy


# numpy names that build or arrange arrays without computing on their elements
_STRUCTURAL = {"empty", "array", "asarray", "zeros", "ones", "full", "eye", "stack",
               "concatenate", "ndindex", "ndarray", "roll", "flip", "transpose", "reshape",
               "outer", "dot", "matmul", "sum", "trace", "diag", "newaxis", "object_",
               "arange", "float64", "int64", "zeros_like", "empty_like", "copy", "tile",
               "pad"}


def _numpy():
    import numpy
    return numpy


class Unsupported(Exception):
    """A construct this interpretation cannot follow (the verdict becomes unknown)."""


class UnmodelledWord(Unsupported):
    """A library word (``math.erf``) the interpretation holds no meaning for."""
    def __init__(self, word: str) -> None:
        super().__init__(f"{word} is not supported by this interpretation")
        self.word = word


class Interpretation:
    """Names a function's globals are rebound to: ``tl``, ``math``, ``np``, builtins."""

    def __init__(self, name: str, tl: Namespace, mathns: Namespace,
                 builtins_: dict[str, Callable], np: Namespace | None = None,
                 torch: Namespace | None = None,
                 literal: Callable[[float], Any] | None = None,
                 unfold: bool = False) -> None:
        self.name = name
        # Float literals in the code become this interpretation's exact numbers, so
        # arithmetic between literals (1.0 / 3.0) never runs in double precision.
        self.literal = literal
        # A real-valued reading reads a constant the compiler folded (0.1 * 3) as the
        # exact value of its source expression (verify.engine.folding); ``literal`` then
        # also receives a Fraction.
        self.unfold = unfold
        self.tl = tl
        self.math = mathns
        self.builtins = builtins_
        self.np = np
        self.torch = torch
        # id(fn) -> (fn, rebound): holding fn keeps its id from being reused by
        # another function while the entry lives.
        self._cache: dict[Any, tuple[Any, Any]] = {}

    def module_stand_in(self, module: types.ModuleType) -> Any:
        if not is_library_module(module):
            return None
        name = module.__name__
        if name in ("triton.language", "triton.language.core"):
            return self.tl
        if name == "math":
            return self.math
        if name == "numpy" and self.np is not None:
            return self.np
        if name == "torch" and self.torch is not None:
            return self.torch
        return None

    def rebind(self, fn: Callable) -> Callable:
        """``fn`` with its vocabulary pointing at this interpretation."""
        fn = unwrap(fn)
        if not isinstance(fn, types.FunctionType) or _is_library(fn):
            return fn
        if self.name == "z3" and catches_exceptions(fn.__code__):
            # z3's x/0 is a value, not a raise: the except branch would never run, and
            # a side condition stated for the division would exclude points the
            # function handles.
            raise Unsupported(f"{fn.__name__} catches exceptions (try/except): the prover "
                              "cannot follow a raise that is caught")
        jit = fn.__code__ in JIT_SOURCES
        key = id(fn)
        cached = self._cache.get(key)
        if cached is not None and cached[0] is fn:
            return cached[1]
        new_globals: dict[str, Any] = {}
        code = fn.__code__ if self.literal is None else _map_literals(
            fn.__code__, self.literal, folded_constants(fn.__code__) if self.unfold else {},
            refuse=self.name == "z3")
        if jit:
            _add_jit_code(code)
        defaults = (None if fn.__defaults__ is None else
                    tuple(self._number(d) for d in fn.__defaults__))
        out = types.FunctionType(code, new_globals, fn.__name__, defaults,
                                 None if fn.__closure__ is None else
                                 tuple(types.CellType() for _ in fn.__closure__))
        out.__kwdefaults__ = (None if fn.__kwdefaults__ is None else
                              {k: self._number(v) for k, v in fn.__kwdefaults__.items()})
        inner = out
        if self.name == "z3" and fn.__name__ in _global_names(fn.__code__):
            out = depth_limited(inner, Unsupported)  # it may call itself on symbolic values
        self._cache[key] = (fn, out)  # before recursing: recursive functions terminate
        # attributes set on the function (``f.scale = 2.0`` after its def), read as its
        # other values are
        inner.__dict__.update({k: self._translate(v) for k, v in vars(fn).items()})
        if out is not inner:
            out.__dict__.update(inner.__dict__)
        new_globals.update(fn.__globals__)
        for name in _global_names(fn.__code__):
            if name in fn.__globals__:
                new_globals[name] = self._translate(fn.__globals__[name])
        new_globals.update({k: v for k, v in self.builtins.items()
                            if k not in fn.__globals__})
        if fn.__closure__ is not None:
            for old, new in zip(fn.__closure__, out.__closure__):
                try:
                    new.cell_contents = self._translate(old.cell_contents)
                except ValueError:  # an empty cell stays empty
                    pass
        return out

    def _number(self, value: Any) -> Any:
        """A finite Python float (global, closure cell, default; or a ``tl.constexpr``
        holding one) read by the literal rule; anything else unchanged."""
        value = constexpr_value(value)
        if self.literal is not None and type(value) is float and math.isfinite(value):
            return self.literal(value)
        return value

    def _translate(self, value: Any) -> Any:
        value = constexpr_value(value)
        if type(value) is float:
            return self._number(value)
        if isinstance(value, types.ModuleType):
            stand_in = self.module_stand_in(value)
            if stand_in is not None:
                return stand_in
            if is_library_module(value):
                return value
            return _ModuleProxy(value, self)
        if callable(value) and (hasattr(value, "fn") or isinstance(value, types.FunctionType)):
            return self.rebind(value)
        if isinstance(value, functools.partial):
            return functools.partial(self._translate(value.func),
                                     *[self._translate(v) for v in value.args],
                                     **{k: self._translate(v) for k, v in value.keywords.items()})
        if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType) \
                and not library(value.__func__):
            owner = value.__self__
            return types.MethodType(self.rebind(value.__func__),
                                    owner if isinstance(owner, type) else _object(self, owner))
        if call_method(value) is not None:
            return _object(self, value)
        if isinstance(value, (tuple, list)) and any(isinstance(v, types.FunctionType) for v in value):
            return type(value)(self._translate(v) for v in value)
        return value


def constexpr_value(value: Any) -> Any:
    """The number a ``tl.constexpr`` holds (Triton computes with it as with that Python
    number: ``C * 3`` for ``C = tl.constexpr(0.1)`` is Python's ``0.1 * 3``); anything
    else unchanged."""
    cls = type(value)
    if cls.__name__ == "constexpr" and cls.__module__.startswith("triton.language"):
        inner = getattr(value, "value", value)
        if type(inner) in (int, float, bool):
            return inner
    return value


def _map_literals(code: types.CodeType, literal: Callable[[Any], Any],
                  folded: dict[float, Any], refuse: bool = False) -> types.CodeType:
    """Float constants mapped by ``literal``, folded ones by their exact value, inside
    tuples and sets of constants too. A double that is ambiguous or whose exact value is
    irrational (see verify.engine.folding) stays itself; the prover (``refuse``) will not
    prove anything about it, since over ℝ it stands for another value."""
    def one(c: Any) -> Any:
        if isinstance(c, float) and math.isfinite(c):
            exact = folded.get(c)
            if refuse and c in folded and not isinstance(exact, Fraction):
                raise Unsupported(
                    f"the constant {c!r} is both written in the code and folded by the "
                    "compiler from a different expression" if exact is None else
                    f"the constant {c!r} is the compiler's fold of {exact.source}, whose "
                    "exact value is irrational")
            return literal(exact if isinstance(exact, Fraction) else c)
        if isinstance(c, types.CodeType):
            return _map_literals(c, literal, folded, refuse)
        if type(c) in (tuple, frozenset) and any(isinstance(x, (float, tuple, frozenset))
                                                 for x in c):
            return type(c)(one(x) for x in c)
        return c
    return code.replace(co_consts=tuple(one(c) for c in code.co_consts))


def _global_names(code: types.CodeType) -> set[str]:
    """Names a function may look up globally, including in nested comprehensions,
    generator expressions and lambdas (their code objects have their own names)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _object(interp: Interpretation, obj: Any) -> Any:
    """An instance of a user class seen through ``interp`` (see ``_ObjectProxy``); one
    proxy per object."""
    key = ("object", id(obj))
    cached = interp._cache.get(key)
    if cached is not None and cached[0] is obj:
        return cached[1]
    proxy = _ObjectProxy(obj, interp)
    interp._cache[key] = (obj, proxy)
    return proxy


def call_method(obj: Any) -> types.FunctionType | None:
    """The user-written ``__call__`` of a callable object (an instance of a class
    defined in user code), or None."""
    if isinstance(obj, (type, types.FunctionType, types.MethodType, types.ModuleType,
                        types.BuiltinFunctionType, functools.partial)):
        return None
    import inspect
    return user_function(inspect.getattr_static(type(obj), "__call__", None))


def user_function(value: Any) -> types.FunctionType | None:
    """``value`` (or the plain function a ``@triton.jit`` one wraps) when it is user
    code, neither a library's nor the checker's own; else None."""
    fn = getattr(value, "fn", value)
    return fn if isinstance(fn, types.FunctionType) and not library(fn) else None


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


class _ObjectProxy:
    """An instance of a user class seen through an interpretation: its attributes read
    by the literal rule, its methods (``__call__`` included) rebound with the proxy as
    ``self``. Read only: a method that sets an attribute is refused before any copy
    runs (``verify.engine.faithful``), and a set here raises."""

    def __init__(self, obj: Any, interp: Interpretation) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_interp", interp)

    def __getattr__(self, name: str) -> Any:
        obj, interp = self._obj, self._interp
        import inspect
        raw = inspect.getattr_static(type(obj), name, None)
        if isinstance(raw, types.FunctionType) and name not in vars(obj):
            return types.MethodType(interp.rebind(raw), self)
        return interp._translate(getattr(obj, name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise Unsupported(f"setting the attribute {name!r} of a "
                          f"{type(self._obj).__name__} object is not followed")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = call_method(self._obj)
        if fn is None:
            raise Unsupported(f"a {type(self._obj).__name__} object is not callable here")
        return self._interp.rebind(fn)(self, *args, **kwargs)


class _ModuleProxy:
    """A project module seen through an interpretation: its functions rebound."""

    def __init__(self, module: types.ModuleType, interp: Interpretation) -> None:
        self._module = module
        self._interp = interp

    def __getattr__(self, name: str) -> Any:
        return self._interp._translate(getattr(self._module, name))


_EXCEPT_MATCH = {"CHECK_EXC_MATCH", "JUMP_IF_NOT_EXC_MATCH", "CHECK_EG_MATCH"}


def catches_exceptions(code: types.CodeType) -> bool:
    """Whether the code (or code nested in it) has an ``except`` clause; a bare
    ``except:`` is found from the source when it is available."""
    import dis
    if any(ins.opname in _EXCEPT_MATCH for ins in dis.get_instructions(code)):
        return True
    try:
        import ast
        import inspect
        tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return any(catches_exceptions(c) for c in code.co_consts
                   if isinstance(c, types.CodeType))
    return any(isinstance(node, ast.Try) and node.handlers for node in ast.walk(tree))


def unwrap(fn: Callable) -> Callable:
    """The plain Python function behind a ``@triton.jit`` function (its ``.fn``)."""
    inner = getattr(fn, "fn", None)
    while inner is not None and callable(inner):
        fn = inner
        inner = getattr(fn, "fn", None)
        code = getattr(fn, "__code__", None)
        if code is not None:
            JIT_SOURCES.add(code)
    return fn


def _is_library(fn: types.FunctionType) -> bool:
    return is_library_file(fn.__code__.co_filename)


_NO_DEFAULT = object()


def variadic(binary: Callable[[Any, Any], Any], builtin: Callable) -> Callable:
    """A stand-in for builtin max/min: one iterable or several arguments, folded with
    ``binary``; plain integers (index arithmetic) keep the builtin. With ``key=`` the
    item kept is Python's: the first whose key no later key beats (compared with ``>``
    for max, ``<`` for min, as the builtin compares); ``default=`` for an empty
    iterable."""
    def f(*args, key=None, default=_NO_DEFAULT):
        items = list(args[0]) if len(args) == 1 else list(args)
        if not items and default is not _NO_DEFAULT:
            return default
        if key is not None:
            best, best_key = items[0], key(items[0])
            for x in items[1:]:
                k = key(x)
                if (k > best_key) if builtin is max else (k < best_key):
                    best, best_key = x, k
            return best
        if all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            return builtin(items)
        return _fold(binary, items)
    return f


def _fold(f, items):
    acc = items[0]
    for x in items[1:]:
        acc = f(acc, x)
    return acc


def call(interp: Interpretation, fn: Callable, *args: Any, **kwargs: Any) -> Any:
    return interp.rebind(fn)(*args, **kwargs)
