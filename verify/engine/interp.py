"""Run one Python function under several interpretations.

A law side or a combine is ordinary Python over a small vocabulary (``tl.maximum``,
``tl.exp``, ``tl.where``, ``math.*``, ``max``/``min``/``abs``, arithmetic, tuples). A
``@triton.jit`` function is accepted as-is: its ``.fn`` is plain Python. ``rebind``
copies a function with those global names pointing at another interpretation's
namespace, recursively for the project functions it calls (through globals and
closures), so the code that runs is the code that was written.

One rule for numbers written in the code: a Python float (a literal in the body, a
module global, a closure cell or a default argument) means the exact double it denotes,
the value the user's Python program computes with. ``0.1`` is
0.1000000000000000055511151231257827…, as an exact rational in z3 and in the exact
interpretation, as an mpf holding exactly that double in mpmath (exact at every working
precision of 53 bits or more, so no precision is frozen in), and as itself in torch and
numpy (rounded to the tensor's dtype there, as Python does). Arithmetic between two
literals then happens in the interpretation. One limit: Python folds constant expressions
such as ``1.0 / 3.0`` when it compiles, before any interpretation sees them; such a folded
constant is the double it produced, which is what the program computes with too.

Library code is recognised by where it lives (the standard library, site-packages,
built-in modules), never by its module's name, so a user module named ``z3helpers`` or
``numpy_utils`` is rebound like any other user code.
"""
from __future__ import annotations

import math
import os
import sysconfig
import textwrap
import types
from fractions import Fraction
from typing import Any, Callable

import mpmath

from verify.engine import floordiv

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
        super().__init__(**kw)
        self._label = label
        self._fallback = fallback  # structural names (np.empty, np.array) pass through

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._fallback is not None and name in _STRUCTURAL:
            return getattr(self._fallback, name)
        raise Unsupported(f"{self._label}.{name} is not supported by this interpretation")


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


class Interpretation:
    """Names a function's globals are rebound to: ``tl``, ``math``, ``np``, builtins."""

    def __init__(self, name: str, tl: Namespace, mathns: Namespace,
                 builtins_: dict[str, Callable], np: Namespace | None = None,
                 torch: Namespace | None = None,
                 literal: Callable[[float], Any] | None = None) -> None:
        self.name = name
        # Float literals in the code become this interpretation's exact numbers, so
        # arithmetic between literals (1.0 / 3.0) never runs in double precision.
        self.literal = literal
        self.tl = tl
        self.math = mathns
        self.builtins = builtins_
        self.np = np
        self.torch = torch
        # id(fn) -> (fn, rebound): holding fn keeps its id from being reused by
        # another function while the entry lives.
        self._cache: dict[int, tuple[Callable, Callable]] = {}

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
        code = fn.__code__ if self.literal is None else _map_literals(fn.__code__, self.literal)
        if jit:
            _add_jit_code(code)
        defaults = (None if fn.__defaults__ is None else
                    tuple(self._number(d) for d in fn.__defaults__))
        out = types.FunctionType(code, new_globals, fn.__name__, defaults,
                                 None if fn.__closure__ is None else
                                 tuple(types.CellType() for _ in fn.__closure__))
        out.__kwdefaults__ = (None if fn.__kwdefaults__ is None else
                              {k: self._number(v) for k, v in fn.__kwdefaults__.items()})
        self._cache[key] = (fn, out)  # before recursing: recursive functions terminate
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
        """A finite Python float (global, closure cell, default) read by the literal
        rule; anything else unchanged."""
        if self.literal is not None and type(value) is float and math.isfinite(value):
            return self.literal(value)
        return value

    def _translate(self, value: Any) -> Any:
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
        if isinstance(value, (tuple, list)) and any(isinstance(v, types.FunctionType) for v in value):
            return type(value)(self._translate(v) for v in value)
        return value


def _map_literals(code: types.CodeType, literal: Callable[[float], Any]) -> types.CodeType:
    consts = []
    for c in code.co_consts:
        if isinstance(c, float) and math.isfinite(c):
            consts.append(literal(c))
        elif isinstance(c, types.CodeType):
            consts.append(_map_literals(c, literal))
        else:
            consts.append(c)
    return code.replace(co_consts=tuple(consts))


def _global_names(code: types.CodeType) -> set[str]:
    """Names a function may look up globally, including in nested comprehensions,
    generator expressions and lambdas (their code objects have their own names)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


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


# --------------------------------------------------------------------------- mpmath
# Each name keeps the semantics of the library it stands for: Python's builtin max/min
# return the first argument unless the second compares greater (smaller), so
# max(nan, 1) is nan and max(1, nan) is 1; tl/torch/numpy maximum and minimum propagate
# NaN; numpy's fmax/fmin ignore it; math.sqrt/math.log raise on a negative (or zero)
# argument as Python does, while tl/torch/numpy return NaN (and log(0) = −∞).
def _mp_max(a, b):
    return b if b > a else a


def _mp_min(a, b):
    return b if b < a else a


def _is_nan_value(x) -> bool:
    return isinstance(x, mpmath.mpf) and mpmath.isnan(x)


def _mp_maximum(a, b):
    if _is_nan_value(a) or _is_nan_value(b):
        return mpmath.nan
    return a if a >= b else b


def _mp_minimum(a, b):
    if _is_nan_value(a) or _is_nan_value(b):
        return mpmath.nan
    return a if a <= b else b


def _mp_fmax(a, b):
    if _is_nan_value(a):
        return b
    if _is_nan_value(b):
        return a
    return a if a >= b else b


def _mp_fmin(a, b):
    if _is_nan_value(a):
        return b
    if _is_nan_value(b):
        return a
    return a if a <= b else b


def _float_sqrt(x):
    x = mpmath.mpf(x)
    return mpmath.nan if x < 0 else mpmath.sqrt(x)


def _float_log(x):
    x = mpmath.mpf(x)
    return mpmath.nan if x < 0 else mpmath.log(x)


def _python_sqrt(x):
    x = mpmath.mpf(x)
    if x < 0:
        raise ValueError("math domain error")
    return mpmath.sqrt(x)


def _python_log(x, base=None):
    x = mpmath.mpf(x)
    if x <= 0:
        raise ValueError("math domain error")
    return mpmath.log(x) if base is None else mpmath.log(x, base)


def _python_log1p(x):
    x = mpmath.mpf(x)
    if x <= -1:
        raise ValueError("math domain error")
    return mpmath.log1p(x)


def _python_log2(x):
    return _python_log(x, 2)


def exact_double_mpf(x: float) -> mpmath.mpf:
    """The double ``x`` as an mpf, exactly (independent of the working precision)."""
    q = Fraction(x)
    return mpmath.mp.make_mpf(mpmath.libmp.from_rational(q.numerator, q.denominator, 64))


def variadic(binary: Callable[[Any, Any], Any], builtin: Callable) -> Callable:
    """A stand-in for builtin max/min: one iterable or several arguments, folded with
    ``binary``; plain integers (index arithmetic) keep the builtin."""
    def f(*args):
        items = list(args[0]) if len(args) == 1 else list(args)
        if all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            return builtin(items)
        return _fold(binary, items)
    return f


def _fold(f, items):
    acc = items[0]
    for x in items[1:]:
        acc = f(acc, x)
    return acc


def _mp_where(c, a, b):
    return a if c else b


# Library constants are Python floats: the exact doubles they denote (one rule for
# numbers), not mpmath's π and e.
_PI, _E, _TAU = (exact_double_mpf(c) for c in (math.pi, math.e, math.tau))


def _mp_logaddexp(a, b):
    """numpy's logaddexp: log(eᵃ + eᵇ), −∞ for two −∞, NaN for a NaN."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if mpmath.isnan(a) or mpmath.isnan(b):
        return mpmath.nan
    m = a if a >= b else b
    if mpmath.isinf(m):
        return m
    return m + mpmath.log(mpmath.exp(a - m) + mpmath.exp(b - m))


def _mp_clip(x, lo, hi):
    """numpy's clip: minimum(maximum(x, lo), hi), NaN propagating."""
    return _mp_minimum(_mp_maximum(x, lo), hi)


def _mp_trunc(x):
    return int(mpmath.floor(x)) if x >= 0 else -int(mpmath.floor(-x))


def _mp_float_trunc(x):
    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        return x
    return mpmath.mpf(_mp_trunc(x))


# numpy/math scalar words shared by the mpmath reading of np and math
_MP_NUMPY_EXTRA = dict(
    logaddexp=_mp_logaddexp, clip=_mp_clip, trunc=_mp_float_trunc,
    floor=lambda x: mpmath.floor(x), ceil=lambda x: mpmath.ceil(x),
    square=lambda x: x * x, log2=lambda x: _float_log(x) / mpmath.log(2),
    log10=lambda x: _float_log(x) / mpmath.log(10), exp2=lambda x: mpmath.power(2, x),
    cbrt=mpmath.cbrt, negative=lambda x: -x, reciprocal=lambda x: 1 / x,
    arctan=mpmath.atan, tan=mpmath.tan, sinh=mpmath.sinh, cosh=mpmath.cosh,
    isnan=mpmath.isnan, isinf=mpmath.isinf, isfinite=mpmath.isfinite)


def make_mpmath() -> Interpretation:
    tl = Namespace(
        "tl", maximum=_mp_maximum, minimum=_mp_minimum, where=_mp_where, exp=mpmath.exp,
        log=_float_log, sqrt=_float_sqrt, abs=abs, exp2=lambda x: mpmath.power(2, x),
        log2=lambda x: mpmath.log(x, 2), fma=lambda a, b, c: a * b + c,
        sigmoid=lambda x: 1 / (1 + mpmath.exp(-x)), cdiv=lambda a, b: -(-a // b),
        tanh=mpmath.tanh, log1p=mpmath.log1p, expm1=mpmath.expm1, sin=mpmath.sin,
        cos=mpmath.cos, float32=None, float64=None, int32=None, int64=None)
    mathns = Namespace(
        "math", exp=mpmath.exp, log=_python_log, sqrt=_python_sqrt, fabs=abs,
        inf=mpmath.inf, pi=_PI, e=_E, tau=_TAU, isinf=mpmath.isinf, isnan=mpmath.isnan,
        log1p=_python_log1p, log2=_python_log2, expm1=mpmath.expm1, tanh=mpmath.tanh,
        sin=mpmath.sin, cos=mpmath.cos, pow=lambda a, b: a ** b, floor=mpmath.floor,
        ceil=mpmath.ceil,
        copysign=lambda a, b: abs(a) if b >= 0 else -abs(a), hypot=mpmath.hypot,
        trunc=_mp_trunc, log10=lambda x: _python_log(x, 10), atan=mpmath.atan,
        tan=mpmath.tan, sinh=mpmath.sinh, cosh=mpmath.cosh, isfinite=mpmath.isfinite)
    np = Namespace(
        "np", fallback=_numpy(), maximum=_mp_maximum, minimum=_mp_minimum, where=_mp_where,
        exp=mpmath.exp, log=_float_log, sqrt=_float_sqrt, abs=abs, inf=mpmath.inf,
        tanh=mpmath.tanh, log1p=mpmath.log1p, expm1=mpmath.expm1, fmax=_mp_fmax,
        fmin=_mp_fmin,
        hypot=mpmath.hypot, pi=_PI, e=_E, sign=mpmath.sign, sin=mpmath.sin, cos=mpmath.cos,
        sigmoid=lambda x: 1 / (1 + mpmath.exp(-x)), **_MP_NUMPY_EXTRA)
    return Interpretation("mpmath", tl, mathns,
                          {"max": variadic(_mp_max, max), "min": variadic(_mp_min, min), "abs": abs},
                          np=np, torch=np, literal=exact_double_mpf)


# --------------------------------------------------------------------------- torch / numpy
def make_torch() -> Interpretation:
    """Values are float tensors of one dtype (batched); Python scalars keep the dtype."""
    import torch

    def maximum(a, b):
        return torch.maximum(*_tensors(a, b))

    def minimum(a, b):
        return torch.minimum(*_tensors(a, b))

    def where(c, a, b):
        if isinstance(c, bool):
            return a if c else b
        a, b = _tensors(a, b)
        return torch.where(c, a, b)

    def _unary(f):
        def g(x):
            if not isinstance(x, torch.Tensor):
                x = torch.tensor(x, dtype=torch.float64)
            return f(x)
        return g

    def vabs(x):
        return abs(x)

    unary = {n: _unary(getattr(torch, n)) for n in
             ("exp", "log", "sqrt", "tanh", "log1p", "expm1", "sin", "cos", "sigmoid")}
    tl = Namespace("tl", maximum=maximum, minimum=minimum, where=where, abs=vabs,
                   exp2=_unary(torch.exp2), log2=_unary(torch.log2),
                   fma=lambda a, b, c: a * b + c, **unary)
    mathns = Namespace("math", fabs=vabs, inf=math.inf, pi=math.pi, e=math.e,
                       trunc=_unary(torch.trunc),
                       isinf=_unary(torch.isinf), isnan=_unary(torch.isnan),
                       floor=_unary(torch.floor), ceil=_unary(torch.ceil),
                       copysign=lambda a, b: torch.copysign(*_tensors(a, b)),
                       hypot=lambda a, b: torch.hypot(*_tensors(a, b)),
                       pow=lambda a, b: torch.pow(*_tensors(a, b)), **unary)
    np = Namespace("np", fallback=_numpy(), maximum=maximum, minimum=minimum, where=where,
                   abs=vabs, logaddexp=lambda a, b: torch.logaddexp(*_tensors(a, b)),
                   clip=lambda x, lo, hi: torch.clamp(x, lo, hi),
                   trunc=_unary(torch.trunc), floor=_unary(torch.floor),
                   ceil=_unary(torch.ceil), square=_unary(torch.square),
                   inf=math.inf, fmax=lambda a, b: torch.fmax(*_tensors(a, b)),
                   fmin=lambda a, b: torch.fmin(*_tensors(a, b)), pi=math.pi, **unary)
    def py_max(a, b):  # Python's max: the first unless the second is greater
        a, b = _tensors(a, b)
        return torch.where(b > a, b, a)

    def py_min(a, b):
        a, b = _tensors(a, b)
        return torch.where(b < a, b, a)

    return Interpretation("torch", tl, mathns, {"max": variadic(py_max, max),
                                                "min": variadic(py_min, min), "abs": vabs},
                          np=np, torch=np)


def _tensors(a, b):
    import torch
    if isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
        b = torch.full_like(a, float(b))
    elif isinstance(b, torch.Tensor) and not isinstance(a, torch.Tensor):
        a = torch.full_like(b, float(a))
    elif not isinstance(a, torch.Tensor):
        a, b = torch.tensor(float(a)), torch.tensor(float(b))
    return a, b


def make_numpy() -> Interpretation:
    """Values are numpy arrays of one dtype (float16, float32, float64)."""
    import numpy

    def where(c, a, b):
        if isinstance(c, (bool, numpy.bool_)) and numpy.ndim(c) == 0:
            return a if c else b
        return numpy.where(c, a, b)

    unary = {n: getattr(numpy, n) for n in ("exp", "log", "sqrt", "tanh", "log1p", "expm1",
                                             "sin", "cos")}
    tl = Namespace("tl", maximum=numpy.maximum, minimum=numpy.minimum, where=where,
                   abs=numpy.abs, exp2=numpy.exp2, log2=numpy.log2,
                   fma=lambda a, b, c: a * b + c,
                   sigmoid=lambda x: 1 / (1 + numpy.exp(-x)), **unary)
    mathns = Namespace("math", fabs=numpy.abs, inf=math.inf, pi=math.pi, e=math.e,
                       isinf=numpy.isinf, isnan=numpy.isnan, **unary)
    def py_max(a, b):  # Python's max: the first unless the second is greater
        return numpy.where(b > a, b, a)

    def py_min(a, b):
        return numpy.where(b < a, b, a)

    return Interpretation("numpy", tl, mathns, {"max": variadic(py_max, max),
                                                "min": variadic(py_min, min),
                                                "abs": numpy.abs},
                          np=None, torch=None)


def call(interp: Interpretation, fn: Callable, *args: Any, **kwargs: Any) -> Any:
    return interp.rebind(fn)(*args, **kwargs)



# --------------------------------------------------------------------------- exact
class Inexact(Unsupported):
    """An operation whose value is not a rational (exp, log, sqrt, ±∞)."""


def make_exact() -> Interpretation:
    """Values are ``fractions.Fraction`` (and ints): exact rational arithmetic, used to
    replay a function where its sides are rational. exp/log/sqrt raise ``Inexact``; an
    infinity turns into a float, which the caller sees as a non-rational result."""
    def refuse(name):
        def f(*_a, **_k):
            raise Inexact(f"{name} is not rational")
        f.unsupported = f"{name} is not rational"
        return f

    def where(c, a, b):
        return a if c else b

    def maximum(a, b):
        return a if a >= b else b

    def minimum(a, b):
        return a if a <= b else b

    common = dict(maximum=maximum, minimum=minimum, where=where, abs=abs,
                  fma=lambda a, b, c: a * b + c, exp=refuse("exp"), log=refuse("log"),
                  sqrt=refuse("sqrt"), exp2=refuse("exp2"), log2=refuse("log2"),
                  sigmoid=refuse("sigmoid"), tanh=refuse("tanh"), log1p=refuse("log1p"),
                  expm1=refuse("expm1"), inf=math.inf)
    tl = Namespace("tl", cdiv=lambda a, b: -(-a // b), float32=None, float64=None,
                   int32=None, int64=None, **common)
    mathns = Namespace("math", fabs=abs, pi=Fraction(math.pi), e=Fraction(math.e),
                       tau=Fraction(math.tau), floor=math.floor,
                       ceil=math.ceil, **common)
    np = Namespace("np", fallback=_numpy(), fmax=maximum, fmin=minimum, sign=lambda x:
                   (x > 0) - (x < 0), pi=Fraction(math.pi), e=Fraction(math.e), **common)
    return Interpretation("exact", tl, mathns,
                          {"max": variadic(_mp_max, max), "min": variadic(_mp_min, min),
                           "abs": abs},
                          np=np, torch=np, literal=Fraction)
