"""Audit a function from the user's own code: which algebraic properties does it have,
and which optimizations do they license?

``python -m verify audit FILE.py:FUNC [--json] [--example ARGS]``

The function is loaded from its file and run, unchanged, under the checker's
interpretations: laws are built on the fly around it (``f(f(a, b), c) = f(a, f(b, c))``
and so on), proved with z3 where the prover can follow the code, searched with
hypothesis against the mpmath oracle where it cannot, and checked for bit-exactness in
float32 and float64.

Kinds of function, decided from the body (AST) and a probing call on mpmath values:

- ``binary``: ``f(a, b)`` with both parameters and the result of one shape (scalars, or
  tuples of k scalars; also the unpacked form ``f(a0, …, ak-1, b0, …, bk-1)`` returning k
  values, the way ``tl.reduce`` calls a combine): associative, commutative, identity
  element, idempotent; scalar ones also get the separability tests.
- ``two-argument``: ``f(x, y)`` whose parameters or result differ in shape: separable
  (rank 1, ``f = g(x)·h(y)``), additively separable, symmetric when the shapes agree.
- ``vector``: one parameter used as a sequence (``len``, iteration, indexing), audited
  at a fixed small length (``proved-bounded`` says which): permutation invariance and
  equivariance, circular shift equivariance, the dependency radius of each output,
  linearity.
- ``unary``: one scalar parameter: monotone (commutes with max), additive, exponential
  (``f(x + y) = f(x)·f(y)``), idempotent.

Soundness rules followed here: a ``proved`` verdict comes only from an unsat z3 query
(with the prover's stated assumptions, such as nonzero denominators); every
counterexample is confirmed by the mpmath oracle at two precisions before it is
reported; constructs the symbolic interpretation cannot follow faithfully (hashing of
values: ``set``, ``dict``, ``Counter``, ``statistics.mode``) send the property to the
searcher with the reason stated; an identity element is reported only when proved or
tested, and "no identity" only when z3 shows that no real element satisfies the
identity equations at a few sample points and the infinite candidates fail there.
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import inspect
import io
import itertools
import json
import os
import sys
import textwrap
import time
import types
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
import torch
import z3

from laws.core import Law, Property, Var
from verify.decide import oracle
from verify.decide.floats import FORMATS, float_verdict
from verify.decide.prover import prove
from verify.decide.search import search
from verify.engine.interp import make_mpmath, make_torch, unwrap
from verify.engine.shapes import flatten, shape_like
from verify.engine.z3interp import Z3Context, evaluate
from verify.errors import BadInput

PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED = (
    "proved", "proved-bounded", "tested", "unknown", "refuted")
HOLDING = (PROVED, PROVED_BOUNDED, TESTED)
DEFAULT_N = 4                 # length at which vector functions are audited
SEARCH_CASES = 200            # searcher cases per property
LOCALITY_CASES = 60           # searcher cases per (output, input) pair
PROVE_TIMEOUT_MS = 5000
FLOAT_FORMATS = ("float32", "float64")
FLOAT_ROWS = 300              # rows of the row-by-row float check
PROBE_SECONDS = 10            # wall-clock limits of the stages that run user code
PROVE_SECONDS = 30
SEARCH_SECONDS = 30
FLOAT_SECONDS = 10
TRACE_SECONDS = 10
MAX_TUPLE = 6                 # largest tuple state probed
NEG_INF, POS_INF = float("-inf"), float("inf")

MP = make_mpmath()
TORCH = make_torch()


class AuditError(BadInput):
    """Bad input: reported as one line on stderr, exit status 2."""


class TimeLimit(BaseException):
    """A stage ran past its wall-clock limit (a BaseException, so that neither the
    user's code nor hypothesis swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    """Interrupt the block after ``seconds`` (main thread only; elsewhere no limit).
    User code may loop or compute astronomically large powers: a stage that runs out
    of time gives ``unknown``, never a verdict."""
    import signal
    import threading
    if (not seconds or threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        yield
        return

    def handler(signum, frame):
        raise TimeLimit(f"ran past {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, handler)
    old_delay, old_interval = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    # an enclosing limit that expires first still applies
    signal.setitimer(signal.ITIMER_REAL, min(seconds, old_delay) if old_delay else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if old_delay:
            left = old_delay - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-4), old_interval)


# --------------------------------------------------------------------------- loading
def load_target(target: str) -> tuple[types.FunctionType, str, str]:
    """The function named by ``FILE.py:FUNC``, loaded from its file."""
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise AuditError(f"expected FILE.py:FUNC, got {target!r}")
    if not path.endswith(".py"):
        raise AuditError(f"{path}: not a .py file")
    if not os.path.isfile(path):
        raise AuditError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditError(f"{path}: cannot be read: {exc}") from None
    try:
        compile(source, path, "exec")
    except SyntaxError as exc:
        raise AuditError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    digest = hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:10]
    stem = "".join(c if c.isalnum() else "_" for c in os.path.basename(path)[:-3])
    modname = f"lawcheck_audited_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise AuditError(f"{path}: cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    except Exception as exc:  # the user's module failed at import
        raise AuditError(f"{path}: importing the file failed: {type(exc).__name__}: "
                         f"{_one_line(exc)}") from None
    if not name.isidentifier() or not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items()
                       if isinstance(unwrap(v), types.FunctionType)
                       and getattr(unwrap(v), "__module__", None) == modname)
        hint = f" (functions there: {', '.join(found)})" if found else ""
        raise AuditError(f"{path}: no function named {name!r}{hint}")
    fn = unwrap(getattr(module, name))
    if not isinstance(fn, types.FunctionType):
        raise AuditError(f"{path}:{name} is not a Python function")
    return fn, path, name


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] + ("…" if len(text) > 200 else "")


# --------------------------------------------------------------------------- the body
@dataclass
class _Use:
    """How a parameter is used in the body."""

    const_index: int = -1          # largest constant index a[k]
    unpack: int | None = None      # a, b = p
    sequence: bool = False         # len(p), iteration, p[i], sorted(p), ...


_SEQUENCE_CALLS = {"len", "sum", "sorted", "list", "tuple", "reversed", "enumerate", "zip",
                   "median", "mean", "mode", "multimode", "fsum", "prod", "any", "all",
                   "median_low", "median_high", "pvariance", "variance", "stdev", "pstdev",
                   "iter", "set", "frozenset", "Counter"}
_HASHING_CALLS = {"set", "frozenset", "dict", "Counter", "defaultdict", "OrderedDict",
                  "mode", "multimode", "hash", "lru_cache", "cache"}


def _call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def _function_node(fn: types.FunctionType):
    try:
        src = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            return node
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            return node
    return None


def _uses(node, params: Sequence[str]) -> dict[str, _Use]:
    uses = {p: _Use() for p in params}
    if node is None:
        return uses

    def is_param(n):
        return isinstance(n, ast.Name) and n.id in uses

    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and is_param(n.value):
            u = uses[n.value.id]
            sl = n.slice
            if isinstance(sl, ast.Constant) and isinstance(sl.value, int) and sl.value >= 0:
                u.const_index = max(u.const_index, sl.value)
            else:
                u.sequence = True
        elif isinstance(n, ast.Assign) and is_param(n.value):
            for t in n.targets:
                if isinstance(t, (ast.Tuple, ast.List)):
                    if any(isinstance(e, ast.Starred) for e in t.elts):
                        uses[n.value.id].sequence = True
                    else:
                        uses[n.value.id].unpack = len(t.elts)
        elif isinstance(n, (ast.For, ast.comprehension)) and is_param(n.iter):
            uses[n.iter.id].sequence = True
        elif isinstance(n, ast.Starred) and is_param(n.value):
            uses[n.value.id].sequence = True
        elif isinstance(n, ast.Call):
            name = _call_name(n)
            args = [a for a in n.args if is_param(a)]
            if name in ("max", "min"):
                if len(n.args) == 1 and args:
                    uses[args[0].id].sequence = True
            elif name in _SEQUENCE_CALLS:
                for a in args:
                    uses[a.id].sequence = True
    return uses


def _return_length(node) -> int | None:
    """Length of the returned tuple when every return statement returns a tuple literal
    of one length."""
    if node is None or isinstance(node, ast.Lambda):
        body = node.body if node is not None else None
        if isinstance(body, (ast.Tuple, ast.List)) and not any(
                isinstance(e, ast.Starred) for e in body.elts):
            return len(body.elts)
        return None
    lengths = set()
    other = False
    stack = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return):
            v = n.value
            if isinstance(v, (ast.Tuple, ast.List)) and not any(
                    isinstance(e, ast.Starred) for e in v.elts):
                lengths.add(len(v.elts))
            else:
                other = True
        stack.extend(ast.iter_child_nodes(n))
    if len(lengths) == 1 and not other:
        return lengths.pop()
    return None


def hashing_constructs(fn: types.FunctionType) -> list[str]:
    """Constructs in the function's file that hash values (the z3 and batched float
    interpretations would treat equal numbers as different keys)."""
    try:
        source = inspect.getsource(inspect.getmodule(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        node = _function_node(fn)
        if node is None:
            return []
        tree = node
    found = []
    for n in ast.walk(tree):
        what = None
        if isinstance(n, ast.Call) and _call_name(n) in _HASHING_CALLS:
            what = _call_name(n) + "()"
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


# --------------------------------------------------------------------------- shapes
@dataclass(frozen=True)
class Shape:
    """A parameter's or result's shape: scalar, tuple of k, or list (vector) of n."""

    kind: str = "scalar"           # "scalar" | "tuple" | "list"
    size: int = 0

    def var(self, name: str) -> Var:
        if self.kind == "scalar":
            return Var(name)
        return Var(name, (self.size,), tuple_state=self.kind == "tuple")

    def text(self) -> str:
        if self.kind == "scalar":
            return "scalar"
        return f"{self.kind} of {self.size}"

    def probe_value(self, start: int) -> Any:
        vals = [mpmath.mpf(2 * (start + i) + 3) / 4 for i in range(max(self.size, 1))]
        if self.kind == "scalar":
            return vals[0]
        return tuple(vals) if self.kind == "tuple" else list(vals)


SCALAR = Shape()


def _shape_of(value: Any) -> Shape | None:
    if isinstance(value, (tuple, list)):
        if any(isinstance(v, (tuple, list, dict, set)) for v in value):
            return None
        return Shape("tuple" if isinstance(value, tuple) else "list", len(value))
    if isinstance(value, np.ndarray):
        return Shape("list", value.size) if value.ndim == 1 else None
    if isinstance(value, (int, float, Fraction, mpmath.mpf, mpmath.mpc, bool, np.generic)):
        return SCALAR
    return None


def _example_shapes(text: str, arity: int) -> tuple[list[Shape], tuple]:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise AuditError(f"--example {text!r} is not a Python literal") from None
    if arity == 1 and not (isinstance(value, tuple) and len(value) == 1):
        value = (value,)
    if not isinstance(value, tuple) or len(value) != arity:
        raise AuditError(f"--example must hold the {arity} arguments of one call, "
                         f"e.g. {'(1.0, 2.0)' if arity == 2 else '([1.0, 2.0, 3.0, 4.0],)'}")
    shapes = []
    for v in value:
        s = _shape_of(v)
        comps = list(v) if isinstance(v, (tuple, list)) else [v]
        if (s is None or (s.kind != "scalar" and s.size == 0)
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool)
                           for c in comps)):
            raise AuditError(f"--example: {v!r} is neither a real number nor a flat "
                             "tuple/list of real numbers")
        shapes.append(s)
    return shapes, value


def _probe(fn, shapes: Sequence[Shape], args: Sequence[Any] | None = None
           ) -> tuple[Any, BaseException | None]:
    """Call ``fn`` on mpmath values of the given shapes (or on the example's values):
    (result, exception)."""
    if args is None:
        args, k = [], 0
        for s in shapes:
            args.append(s.probe_value(k))
            k += max(s.size, 1)
    else:
        args = [oracle.to_mp(a) for a in args]
    try:
        with time_limit(PROBE_SECONDS), mpmath.workprec(oracle.PREC), \
                contextlib.redirect_stdout(io.StringIO()):
            return MP.rebind(fn)(*args), None
    except (Exception, TimeLimit) as exc:  # the probe decides between candidate shapes
        return None, exc


@dataclass
class Signature:
    kind: str                      # binary | two-argument | vector | unary
    params: tuple[Shape, ...]      # shapes the wrapped function g receives
    result: Shape
    unpacked: bool = False         # f(a0..ak-1, b0..bk-1) seen as g(a, b)
    notes: list[str] = field(default_factory=list)


def analyse(fn: types.FunctionType, example: str | None = None) -> Signature:
    """Decide the kind of function and the shapes of its parameters and result."""
    sig = inspect.signature(fn)
    required = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise AuditError(f"{fn.__name__} takes *args/**kwargs: not supported (give it "
                             "one or two named parameters)")
        if p.default is p.empty:
            if p.kind == p.KEYWORD_ONLY:
                raise AuditError(f"{fn.__name__}: keyword-only parameter {p.name!r} without "
                                 "a default is not supported")
            required.append(p.name)
    arity = len(required)
    node = _function_node(fn)
    uses = _uses(node, required)
    ret_len = _return_length(node)
    if arity == 0:
        raise AuditError(f"{fn.__name__} takes no parameters: nothing to audit (functions "
                         "of 1 or 2 parameters are supported)")
    unpacked = False
    if arity > 2:
        if arity % 2 == 0 and ret_len == arity // 2:
            unpacked = True
        else:
            raise AuditError(
                f"{fn.__name__} takes {arity} parameters: only functions of 1 or 2 "
                "parameters are supported (or 2k parameters returning k values, the "
                "unpacked combine tl.reduce calls)")
    example_args = None
    if example is not None:
        shapes, example_args = _example_shapes(example, arity)
        candidates = [tuple(shapes)]
    elif unpacked:
        candidates = [tuple([SCALAR] * arity)]
    else:
        candidates = _candidates(arity, [uses[p] for p in required], ret_len)
    failure: BaseException | None = None
    for shapes in candidates:
        result, exc = _probe(fn, shapes, example_args)
        if exc is not None:
            failure = failure or exc
            if example is not None:
                failure = exc
            continue
        out = _shape_of(result)
        if out is None:
            failure = failure or AuditError(
                f"returned {type(result).__name__}, not a number or a flat tuple of numbers")
            continue
        if out.kind == "list" and not (arity == 1 and shapes[0].kind != "scalar"):
            out = Shape("tuple", out.size)
        return _classify(fn, shapes, out, unpacked, example is not None)
    what = f"{type(failure).__name__}: {_one_line(failure)}" if failure else "no shape fits"
    raise AuditError(f"{fn.__name__} raised on the probe call ({what}); give one "
                     "example call with --example")


def _candidates(arity: int, uses: list[_Use], ret_len: int | None) -> list[tuple[Shape, ...]]:
    def sized(u: _Use) -> int | None:
        # a[k] alone bounds the size from below; a tuple of one is no state, so the
        # bound is raised to 2 (a component the body only carries along).
        if u.unpack:
            return u.unpack
        if u.const_index >= 0 and not u.sequence:
            return max(u.const_index + 1, 2)
        return None

    def informed(u: _Use) -> bool:
        return u.sequence or u.const_index >= 0 or u.unpack is not None

    out: list[tuple[Shape, ...]] = []
    if arity == 1:
        u = uses[0]
        if informed(u):
            n = u.unpack or max(DEFAULT_N, u.const_index + 1)
            out.append((Shape("list", n),))
            out.append((SCALAR,))
        else:
            out.append((SCALAR,))
            out.append((Shape("list", DEFAULT_N),))
        return out
    a, b = uses
    if informed(a) or informed(b):
        sa, sb = sized(a), sized(b)
        if ret_len and all(u.unpack in (None, ret_len) and u.const_index < ret_len
                           for u in (a, b)):
            out.append((Shape("tuple", ret_len), Shape("tuple", ret_len)))
        if sa and sb:
            out.append((Shape("tuple", sa), Shape("tuple", sb)))
        for k in [2, 3, 1, 4, 5, 6]:
            ka = sa or (k if informed(a) else 0)
            kb = sb or (k if informed(b) else 0)
            if informed(a) and ka <= a.const_index:
                continue
            if informed(b) and kb <= b.const_index:
                continue
            out.append((Shape("tuple", ka) if ka else SCALAR,
                        Shape("tuple", kb) if kb else SCALAR))
    else:
        out.append((SCALAR, SCALAR))
        if ret_len:
            out.append((Shape("tuple", ret_len),) * 2)
        for k in range(1, MAX_TUPLE + 1):
            out.append((Shape("tuple", k),) * 2)
    seen, unique = set(), []
    for c in out:
        if c not in seen:
            seen.add(c)
            unique.append(c)
    return unique


def _classify(fn, shapes, out: Shape, unpacked: bool, from_example: bool) -> Signature:
    notes = []
    if from_example:
        notes.append("shapes taken from --example")
    if unpacked:
        k = len(shapes) // 2
        state = Shape("tuple", k)
        if out.kind == "scalar" or out.size != k:
            raise AuditError(f"{fn.__name__} takes {len(shapes)} parameters but does not "
                             f"return {k} values: not an unpacked combine")
        notes.append(f"unpacked combine: f(a0..a{k - 1}, b0..b{k - 1}) read as a combine "
                     f"of {k}-tuples")
        return Signature("binary", (state, state), state, True, notes)
    if len(shapes) == 1:
        s = shapes[0]
        if s.kind == "scalar":
            return Signature("unary", (SCALAR,), out, notes=notes)
        vec = Shape("list", s.size)
        notes.append(f"audited at length n = {s.size}")
        return Signature("vector", (vec,), out, notes=notes)
    a, b = shapes
    if a.kind == "list" or b.kind == "list":
        a = Shape("tuple", a.size) if a.kind == "list" else a
        b = Shape("tuple", b.size) if b.kind == "list" else b
    if a == b and out.size == a.size and (out.kind == "scalar") == (a.kind == "scalar"):
        return Signature("binary", (a, b), a, notes=notes)
    return Signature("two-argument", (a, b), out, notes=notes)


# --------------------------------------------------------------------------- wrappers
def _wrap(fn, sig: Signature) -> Callable:
    """The function the laws call: tuple states in, tuple states out."""
    if sig.unpacked:
        return lambda a, b: tuple(fn(*a, *b))
    if sig.kind == "vector":
        if sig.result.kind == "scalar":
            return lambda x: fn(list(x))
        return lambda x: list(fn(list(x)))
    if sig.result.kind != "scalar":
        if len(sig.params) == 2:
            return lambda a, b: tuple(fn(a, b))
        return lambda a: tuple(fn(a))
    return fn


class _Guard:
    """The domain of an audited law: inputs where both sides are defined and real.

    Used as the law's precondition. Under z3 it adds nothing (the prover records its own
    assumptions: nonzero denominators, log and sqrt arguments); under mpmath it excludes
    inputs where a side raises (division by zero) or is NaN or complex (log of a
    negative number); under torch it masks rows whose float64 sides are not finite.
    It is an object, not a function, so the interpretations pass it through unchanged.
    """

    def __call__(self, lhs, rhs, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) for c in comps):
            return []
        if any(isinstance(c, torch.Tensor) for c in comps):
            try:
                outs = flatten(lhs(*values)) + flatten(rhs(*values))
            except Exception:  # the float check reports its own failure
                return []
            mask = None
            for o in outs:
                if isinstance(o, torch.Tensor) and o.is_floating_point():
                    m = torch.isfinite(o)
                    mask = m if mask is None else mask & m
            return [mask] if mask is not None else []
        try:
            outs = flatten(lhs(*values)) + flatten(rhs(*values))
        except Exception:  # undefined here (x/0, comparisons of complex values, ...)
            return [False]
        return [all(_real(o) for o in outs)]


def _real(x: Any) -> bool:
    """A real number or ±∞ (mpmath does not overflow: an infinity is meant, as in the
    −∞ of a lifted top-k state); not NaN, not complex."""
    if isinstance(x, (bool, np.bool_, int, Fraction)):
        return True
    if isinstance(x, mpmath.mpf):
        return not mpmath.isnan(x)
    if isinstance(x, float):
        return x == x
    return False


GUARD = _Guard()


class _Evaluate:
    """Evaluate a law side. Under mpmath the working precision is raised by the number
    of binades the inputs span (and their distance from 1): the oracle compares 113 and
    177 bits, and ``log(exp(a))`` at a = 10⁻¹⁵⁰ loses a entirely at both, which would
    read as a stable gap. Other interpretations evaluate unchanged. An object, not a
    function, so the interpretations pass it through."""

    def __call__(self, template, g, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) or isinstance(c, torch.Tensor) for c in comps):
            return template(g, *values)
        mags = [1]
        for c in comps:
            if isinstance(c, mpmath.mpf) and c and mpmath.isfinite(c):
                mags.append(int(mpmath.mag(c)))
            elif isinstance(c, (int, Fraction)) and c:
                mags.append(int(mpmath.mag(mpmath.mpf(c))))
        span = max(mags) - min(mags)
        if span <= 16:
            return template(g, *values)
        with mpmath.workprec(mpmath.mp.prec + span + 32):
            return template(g, *values)


EVALUATE = _Evaluate()


# --------------------------------------------------------------------------- properties
@dataclass
class Prop:
    """One property of the audited function, as an equation between two templates that
    receive the function first: ``lhs(F, *vars) = rhs(F, *vars)``."""

    name: str
    family: Property
    statement: str
    licenses: str
    var_names: tuple[str, ...]
    shapes: tuple[Shape, ...]
    lhs: Callable
    rhs: Callable
    bounded: str | None = None     # fixed length: proved means proved-bounded
    floats: bool = True
    element: Any = None            # identity element under test
    vars: tuple[Var, ...] | None = None   # explicit variables (with domains)
    pre: Callable | None = None    # extra preconditions: pre(*vars) -> conditions


def make_law(prop: Prop, g: Callable, guarded: bool = True) -> Law:
    """The property as a law about ``g``: both sides call the very function audited."""
    lt, rt, extra = prop.lhs, prop.rhs, prop.pre

    def lhs(*vs):
        return EVALUATE(lt, g, vs)

    def rhs(*vs):
        return EVALUATE(rt, g, vs)

    def pre(*vs):
        return GUARD(lhs, rhs, vs)

    def pre_with_extra(*vs):
        return list(extra(*vs)) + GUARD(lhs, rhs, vs)

    law_pre = None
    if guarded:
        law_pre = pre if extra is None else pre_with_extra
    return Law(id=f"audit.{prop.name}", property=prop.family, statement=prop.statement,
               licenses=prop.licenses,
               vars=prop.vars or tuple(s.var(n) for n, s in zip(prop.var_names, prop.shapes)),
               lhs=lhs, rhs=rhs, pre=law_pre, bounded_by=prop.bounded)


LICENSES = {
    "associative": "chunking and parallel reduction or scan: reduce chunks independently "
                   "and combine the partial results in any grouping (tl.reduce, "
                   "tl.associative_scan, split-K, streaming over tiles)",
    "commutative": "any order: tree reductions across lanes, atomics, merging chunks as "
                   "they finish",
    "identity": "padding and empty chunks: masked lanes and the fold's start may hold "
                "the identity",
    "idempotent": "overlapping chunks may be combined twice (halo re-reads, overlapping "
                  "windows)",
    "separable": "factorization: the table [f(xᵢ, yⱼ)] has rank 1, f = g(x)·h(y); keep g "
                 "and h (m + n numbers, not m·n) and factor Σⱼ f(x, yⱼ)·vⱼ = "
                 "g(x)·Σⱼ h(yⱼ)·vⱼ",
    "additively_separable": "f = g(x) + h(y): broadcast instead of materializing the "
                            "table; max and softmax over y decompose "
                            "(maxⱼ f(x, yⱼ) = g(x) + maxⱼ h(yⱼ))",
    "symmetric": "a symmetric pairwise table: compute one triangle and mirror it",
    "permutation_invariant": "order does not matter: process the data in any order or "
                             "layout (sharding, atomics, sorting first)",
    "permutation_equivariant": "reordering commutes with f: permute, shard or sort the "
                               "data, apply f, undo the permutation (token-parallel "
                               "layouts, MoE dispatch)",
    "shift_equivariant": "shifting commutes with f: one kernel slides over every "
                         "position (convolution, FFT evaluation)",
    "locality": "tiling with a halo: an output tile needs only its input tile plus r "
                "neighbours on each side (stencils, sliding-window attention)",
    "linear": "superposition: f(s·x + y) = s·f(x) + f(y); apply f to chunk sums, batch it "
              "as a matrix product, factor it",
    "monotone": "max, argmax and top-k commute with f: select on the inputs and apply f "
                "to the winners only (argmax of softmax = argmax of logits)",
    "additive": "f distributes over sums: apply f once after a reduction instead of to "
                "every term",
    "exponential": "f(x + y) = f(x)·f(y): a kernel f(q + k) factors into f(q)·f(k) "
                   "(the exp of softmax splits into row and column factors)",
    "idempotent_map": "applying f twice is applying it once: duplicated or fused "
                      "applications (clamps, projections) can be deduplicated",
}


def _swap01(x):
    return [x[1], x[0]] + list(x[2:])


def _cycle(x):
    return list(x[1:]) + [x[0]]


def _mul(u, v):
    if isinstance(u, (tuple, list)):
        return [a * b for a, b in zip(u, v)]
    return u * v


def _add(u, v):
    if isinstance(u, (tuple, list)):
        return [a + b for a, b in zip(u, v)]
    return u + v


def binary_props(sig: Signature) -> list[Prop]:
    s = sig.params[0]
    three = (s, s, s)
    props = [
        Prop("associative", Property.ASSOCIATIVITY, "f(f(a, b), c) = f(a, f(b, c))",
             LICENSES["associative"], ("a", "b", "c"), three,
             lambda F, a, b, c: F(F(a, b), c), lambda F, a, b, c: F(a, F(b, c))),
        Prop("commutative", Property.SYMMETRY, "f(a, b) = f(b, a)", LICENSES["commutative"],
             ("a", "b"), (s, s), lambda F, a, b: F(a, b), lambda F, a, b: F(b, a)),
        Prop("idempotent", Property.REDUNDANCY, "f(a, a) = a", LICENSES["idempotent"],
             ("a",), (s,), lambda F, a: F(a, a), lambda F, a: a),
    ]
    if s.kind == "scalar":
        props += two_argument_props(sig, symmetric=False)
    return props


def identity_prop(s: Shape, e: Any) -> Prop:
    return Prop("identity", Property.ASSOCIATIVITY,
                f"f(e, a) = a = f(a, e) with e = {show(e)}", LICENSES["identity"],
                ("a",), (s,), lambda F, a: (F(e, a), F(a, e)), lambda F, a: (a, a),
                element=e)


def two_argument_props(sig: Signature, symmetric: bool = True) -> list[Prop]:
    sx, sy = sig.params
    four = (sx, sx, sy, sy)
    props = [
        Prop("separable", Property.SEPARABILITY,
             "f(x, y)·f(x′, y′) = f(x, y′)·f(x′, y)  (rank 1: f = g(x)·h(y))",
             LICENSES["separable"], ("x", "x2", "y", "y2"), four,
             lambda F, x, x2, y, y2: _mul(F(x, y), F(x2, y2)),
             lambda F, x, x2, y, y2: _mul(F(x, y2), F(x2, y))),
        Prop("additively_separable", Property.SEPARABILITY,
             "f(x, y) + f(x′, y′) = f(x, y′) + f(x′, y)  (f = g(x) + h(y))",
             LICENSES["additively_separable"], ("x", "x2", "y", "y2"), four,
             lambda F, x, x2, y, y2: _add(F(x, y), F(x2, y2)),
             lambda F, x, x2, y, y2: _add(F(x, y2), F(x2, y))),
    ]
    if symmetric and sx == sy:
        props.append(Prop("symmetric", Property.SYMMETRY, "f(x, y) = f(y, x)",
                          LICENSES["symmetric"], ("x", "y"), (sx, sy),
                          lambda F, x, y: F(x, y), lambda F, x, y: F(y, x)))
    return props


def unary_props(sig: Signature) -> list[Prop]:
    out = [
        Prop("additive", Property.SEPARABILITY, "f(x + y) = f(x) + f(y)",
             LICENSES["additive"], ("x", "y"), (SCALAR, SCALAR),
             lambda F, x, y: F(x + y), lambda F, x, y: _add(F(x), F(y))),
    ]
    if sig.result.kind == "scalar":
        out += [
            Prop("monotone", Property.SPARSITY,
                 "f(max(x, y)) = max(f(x), f(y))  (f is nondecreasing)",
                 LICENSES["monotone"], ("x", "y"), (SCALAR, SCALAR),
                 lambda F, x, y: F(max(x, y)), lambda F, x, y: max(F(x), F(y))),
            Prop("exponential", Property.SEPARABILITY, "f(x + y) = f(x)·f(y)",
                 LICENSES["exponential"], ("x", "y"), (SCALAR, SCALAR),
                 lambda F, x, y: F(x + y), lambda F, x, y: F(x) * F(y)),
            Prop("idempotent", Property.REDUNDANCY, "f(f(x)) = f(x)",
                 LICENSES["idempotent_map"], ("x",), (SCALAR,),
                 lambda F, x: F(F(x)), lambda F, x: F(x)),
        ]
    return out


def vector_props(sig: Signature) -> list[Prop]:
    n = sig.params[0].size
    vec = sig.params[0]
    bound = f"n = {n}"
    out = []
    if n >= 2:
        out.append(Prop("permutation_invariant", Property.SYMMETRY,
                        "f(σx) = f(x) for σ = swap(0, 1) and σ = cycle (these generate "
                        "every permutation)", LICENSES["permutation_invariant"], ("x",),
                        (vec,), None, None, bounded=bound))
        if sig.result.kind != "scalar" and sig.result.size == n:
            out.append(Prop("permutation_equivariant", Property.SYMMETRY,
                            "f(σx) = σf(x) for σ = swap(0, 1) and σ = cycle",
                            LICENSES["permutation_equivariant"], ("x",), (vec,), None, None,
                            bounded=bound))
            out.append(Prop("shift_equivariant", Property.SYMMETRY,
                            "f(shift(x)) = shift(f(x)), shift(x)ᵢ = x₍ᵢ₊₁₎ mod n",
                            LICENSES["shift_equivariant"], ("x",), (vec,),
                            lambda F, x: F(_cycle(x)), lambda F, x: _cycle(F(x)),
                            bounded=bound))
    out.append(Prop("linear", Property.SEPARABILITY, "f(s·x + y) = s·f(x) + f(y)",
                    LICENSES["linear"], ("s", "x", "y"), (SCALAR, vec, vec),
                    lambda F, s, x, y: F([s * a + b for a, b in zip(x, y)]),
                    lambda F, s, x, y: _add(_scale(s, F(x)), F(y)), bounded=bound))
    return out


def _scale(s, v):
    if isinstance(v, (tuple, list)):
        return [s * a for a in v]
    return s * v


def _generator_props(prop: Prop) -> list[Prop]:
    """A permutation property as one law per generator (fewer symbolic paths each)."""
    out = []
    for label, perm in (("swap", _swap01), ("cycle", _cycle)):
        if prop.name == "permutation_invariant":
            lt = (lambda perm: lambda F, x: F(perm(x)))(perm)
            rt = lambda F, x: F(x)  # noqa: E731
        else:
            lt = (lambda perm: lambda F, x: F(perm(x)))(perm)
            rt = (lambda perm: lambda F, x: perm(F(x)))(perm)
        out.append(Prop(f"{prop.name}_{label}", prop.family,
                        prop.statement.split(" for ")[0] + f" for σ = {label}",
                        prop.licenses, prop.var_names, prop.shapes, lt, rt, prop.bounded))
        if prop.shapes[0].size == 2:
            break  # swap and cycle coincide
    return out


# --------------------------------------------------------------------------- verdicts
@dataclass
class Settings:
    floats: bool = True
    cases: int = SEARCH_CASES
    timeout_ms: int = PROVE_TIMEOUT_MS
    prove_seconds: float = PROVE_SECONDS
    search_seconds: float = SEARCH_SECONDS
    float_seconds: float = FLOAT_SECONDS


_SETTINGS = Settings()


def decide(law: Law, *, bounded: bool, no_prover: str | None, cases: int,
           timeout_ms: int = PROVE_TIMEOUT_MS) -> dict:
    """Verdict over ℝ: z3 first, the searcher when z3 cannot decide; every
    counterexample confirmed by the oracle before it is reported."""
    out: dict[str, Any] = {"verdict": UNKNOWN, "values": None, "method": None,
                           "assumptions": [], "reason": None, "cases": None,
                           "seconds": 0.0}
    t0 = time.perf_counter()
    reasons = []
    if no_prover:
        reasons.append(no_prover)
    else:
        try:
            with time_limit(_SETTINGS.prove_seconds), contextlib.redirect_stdout(io.StringIO()):
                proof = prove(law, {}, timeout_ms)
        except TimeLimit as exc:
            proof = None
            reasons.append(f"the prover {exc}")
        except Exception as exc:  # a construct the z3 interpretation cannot run
            proof = None
            reasons.append(f"the prover could not follow the function "
                           f"({type(exc).__name__}: {_one_line(exc)})")
        if proof is not None:
            out["assumptions"] = list(proof.assumptions)
            method = "z3 over ℝ" + (f" ({', '.join(sorted(proof.encodings))})"
                                     if proof.encodings else "")
            if proof.status == PROVED:
                out.update(verdict=PROVED_BOUNDED if bounded else PROVED, method=method)
                out["seconds"] = round(time.perf_counter() - t0, 4)
                return out
            if proof.status == REFUTED and _confirmed(law, proof.values):
                out.update(verdict=REFUTED, values=proof.values,
                           method=method + "; counterexample replayed in mpmath")
                out["seconds"] = round(time.perf_counter() - t0, 4)
                return out
            reasons.append(f"the prover answered unknown: {proof.reason or proof.status}")
    try:
        with time_limit(_SETTINGS.search_seconds), contextlib.redirect_stdout(io.StringIO()):
            found = search(law, {}, cases)
    except (Exception, TimeLimit) as exc:  # the mpmath interpretation cannot run it
        why = (f"the searcher {exc}" if isinstance(exc, TimeLimit) else
               f"the searcher could not run the function ({type(exc).__name__}: "
               f"{_one_line(exc)})")
        out.update(verdict=UNKNOWN, method="none", reason="; ".join(reasons + [why]))
        out["seconds"] = round(time.perf_counter() - t0, 4)
        return out
    out["method"] = "hypothesis + mpmath oracle"
    out["assumptions"] = []  # the prover's assumptions belong to a proof not obtained
    out["reason"] = "; ".join(reasons) + "; so the searcher was used instead"
    if found.status == REFUTED and _confirmed(law, found.values):
        out.update(verdict=REFUTED, values=found.values, cases=found.cases)
    elif found.status == "tested":
        out.update(verdict=TESTED, cases=found.cases)
    else:
        out.update(verdict=UNKNOWN, cases=found.cases or None,
                   reason=out["reason"] + (f"; {found.reason}" if found.reason else ""))
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def _confirmed(law: Law, values) -> bool:
    if values is None:
        return False
    try:
        with time_limit(_SETTINGS.search_seconds):
            return oracle.confirms(law, values)
    except (Exception, TimeLimit):  # a replay that cannot run confirms nothing
        return False


def combine_verdicts(parts: list[dict]) -> dict:
    """Several laws making up one property (one per permutation generator)."""
    refuted = [p for p in parts if p["verdict"] == REFUTED]
    if refuted:
        return refuted[0]
    order = [PROVED, PROVED_BOUNDED, TESTED, UNKNOWN]
    worst = max(parts, key=lambda p: order.index(p["verdict"]))
    out = dict(worst)
    out["assumptions"] = sorted({a for p in parts for a in p["assumptions"]})
    if worst["verdict"] == TESTED:
        out["cases"] = sum(p["cases"] or 0 for p in parts)
    out["seconds"] = round(sum(p["seconds"] for p in parts), 4)
    return out


# --------------------------------------------------------------------------- floats
def float_check(law: Law, fmt: str, no_floats: str | None, batched: bool = True) -> dict:
    """Does the property hold bit-exactly in ``fmt``? Batched first (the engine's float
    verdict, with each side's accuracy against the oracle), row by row when the function
    branches on values or when ``batched`` is off (a property that already fails over ℝ
    needs no accuracy figures)."""
    if no_floats:
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None,
                "note": no_floats}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # overflow in a format is a finding, reported as such, not console noise
        warnings.simplefilter("ignore")
        return _float_check(law, fmt, batched)


def _float_check(law: Law, fmt: str, batched: bool) -> dict:
    note = None
    if batched:
        try:
            with time_limit(_SETTINGS.float_seconds), \
                    contextlib.redirect_stdout(io.StringIO()):
                fv = float_verdict(law, fmt)
            if fv.get("exact") is not None or fv.get("cases"):
                return _float_summary(law, fv)
            note = fv.get("note")
        except TimeLimit as exc:  # the accuracy oracle on huge values: go row by row
            note = f"batched check {exc}; checked row by row"
        except Exception as exc:  # Python branches on batched values: go row by row
            note = f"batched evaluation failed ({type(exc).__name__}); checked row by row"
    try:
        with time_limit(_SETTINGS.float_seconds):
            rows = _float_rows(law, fmt)
    except (Exception, TimeLimit) as exc:  # the torch interpretation cannot run it
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None,
                "note": f"the float interpretation cannot run the function: "
                        f"{type(exc).__name__}: {_one_line(exc)}"}
    if note:
        rows["note"] = note
    return rows


def _float_summary(law: Law, fv: dict) -> dict:
    exact = fv.get("exact")
    ce = fv.get("counterexample")
    out = {"verdict": "exact" if exact else ("inexact" if exact is False else UNKNOWN),
           "exact": exact, "cases": fv.get("cases", 0),
           "counterexample": [ce["bindings"][v.name] for v in law.vars] if ce else None}
    if ce:
        out["sides"] = {"lhs": ce.get("lhs"), "rhs": ce.get("rhs")}
    if fv.get("method"):
        out["method"] = fv["method"]
    if "max_relative_error_in_u" in fv:
        out["max_relative_error_in_u"] = fv["max_relative_error_in_u"]
    if fv.get("note"):
        out["note"] = fv["note"]
    return out


def _row_inputs(law: Law, dtype: torch.dtype, rng: np.random.Generator) -> list[list[float]]:
    comps = sum(len(v.component_domains()) for v in law.vars)
    rows = []
    for i in range(FLOAT_ROWS):
        kind = i % 4
        if kind == 0:
            r = rng.standard_normal(comps) * 10.0 ** rng.uniform(-3, 4, comps)
        elif kind == 1:
            r = rng.integers(-8, 9, comps).astype(float)
        elif kind == 2:
            r = 1e4 + rng.standard_normal(comps)
        else:
            r = rng.standard_normal(comps)
        if i % 10 == 9 and comps > 1:
            a, b = rng.integers(0, comps, 2)
            r[b] = r[a]
        rows.append([float(torch.tensor(x, dtype=torch.float64).to(dtype)) for x in r])
    return rows


def _float_rows(law: Law, fmt: str) -> dict:
    dtype, _ = FORMATS[fmt]
    rng = np.random.default_rng(0)
    lhs_fn, rhs_fn = TORCH.rebind(law.lhs), TORCH.rebind(law.rhs)
    pre_fn = TORCH.rebind(law.pre) if law.pre is not None else None
    compared = 0
    for row in _row_inputs(law, dtype, rng):
        def shaped(dt):
            vals, k = [], 0
            for v in law.vars:
                size = len(v.component_domains())
                vals.append(shape_like(v, [torch.tensor(c, dtype=dt)
                                           for c in row[k:k + size]]))
                k += size
            return vals
        with torch.no_grad():
            if pre_fn is not None:
                conds = flatten(pre_fn(*shaped(torch.float64)))
                if not all(bool(c) for c in conds):
                    continue
            try:
                vals = shaped(dtype)
                lv = [float(x) for x in flatten(lhs_fn(*vals))]
                rv = [float(x) for x in flatten(rhs_fn(*vals))]
            except (ZeroDivisionError, ValueError, OverflowError):
                continue
        compared += 1
        if not all(a == b or (a != a and b != b) for a, b in zip(lv, rv)):
            k, args = 0, []
            for v in law.vars:
                size = len(v.component_domains())
                args.append(oracle.plain(shape_like(v, row[k:k + size])))
                k += size
            return {"verdict": "inexact", "exact": False, "cases": compared,
                    "counterexample": args,
                    "sides": {"lhs": lv if len(lv) > 1 else lv[0],
                              "rhs": rv if len(rv) > 1 else rv[0]}}
    if compared == 0:
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None}
    return {"verdict": "exact", "exact": True, "cases": compared, "counterexample": None}


# --------------------------------------------------------------------------- identity
def _samples(s: Shape) -> list[Any]:
    """Points at which the identity equations are instantiated (integers: the exp
    encoding needs integer coefficients)."""
    if s.kind == "scalar":
        return [1, 2, -3, 5]
    base = [[1, 2, -3, 5, 7, -2], [2, -1, 4, 3, -5, 6], [-3, 5, 2, -1, 2, 9],
            [5, 3, 1, -4, 1, 2]]
    return [tuple(b[i % len(b)] for i in range(s.size)) for b in base]


def _check_points(s: Shape) -> list[Any]:
    pts = [0, 1, -1, 2, Fraction(1, 2), -3]
    if s.kind == "scalar":
        return pts
    return [tuple(pts[(i + j) % len(pts)] for i in range(s.size)) for j in range(6)]


def _candidate_elements(s: Shape) -> list[Any]:
    base = [0, 1, NEG_INF, POS_INF]
    if s.kind == "scalar":
        return list(base)
    if s.size > 4:
        return [tuple([c] * s.size) for c in base]
    return [tuple(c) for c in itertools.product(base, repeat=s.size)]


def _mismatch(g, e, a) -> bool:
    """f(e, a) = a = f(a, e) fails at ``a`` (confirmed at two precisions), evaluated
    as written (no domain guard: f(∞, a) = nan is a mismatch). A point where f raises
    (a zero denominator) decides nothing."""
    prop = identity_prop(_shape_of_value(a), e)
    law = make_law(prop, g, guarded=False)
    try:
        with time_limit(PROBE_SECONDS):
            return oracle.gap(law, [a]).differs
    except (Exception, TimeLimit):  # undefined at this point: no evidence either way
        return False


def _shape_of_value(a) -> Shape:
    return Shape("tuple", len(a)) if isinstance(a, tuple) else SCALAR


def _z3_solve(g, s: Shape, timeout_ms: int) -> tuple[str, Any, str]:
    """Solve f(e, a) = a = f(a, e) for a real e at the sample points.
    ('unsat', None, why) proves that no real e exists; ('sat', e, '') gives a candidate;
    ('unknown', None, why) otherwise."""
    ctx = Z3Context()
    try:
        with time_limit(_SETTINGS.prove_seconds):
            answer, solver, e = _z3_identity_query(ctx, g, s, timeout_ms)
    except (Exception, TimeLimit) as exc:  # a construct z3 cannot follow, or a timeout
        return UNKNOWN, None, f"z3 could not solve for e ({_one_line(exc)})"
    if answer == z3.unsat:
        if ctx.infinity_facts():
            # ±∞ literals are modeled as finite symbols: unsat of that model says
            # nothing about the function as written.
            return UNKNOWN, None, "the function uses ±∞ literals, which the z3 model of e " \
                                  "cannot represent faithfully"
        return "unsat", None, ""
    if answer != z3.sat:
        return UNKNOWN, None, f"z3: {solver.reason_unknown()}"
    model = solver.model()
    comps = []
    for v in flatten(e):
        val = model.eval(v, model_completion=True)
        if not z3.is_rational_value(val):
            return "sat", None, ""
        comps.append(_nice(Fraction(val.numerator_as_long(), val.denominator_as_long())))
    if any(c is None for c in comps):
        return "sat", None, ""
    return "sat", (tuple(comps) if s.kind != "scalar" else comps[0]), ""


def _z3_identity_query(ctx: Z3Context, g, s: Shape, timeout_ms: int):
    e = ctx.make(s.var("e"))
    fn = ctx.interp.rebind(g)
    eqs = []
    for a in _samples(s):
        a_z = _z3_const(a)
        left = flatten(evaluate(ctx, lambda: fn(e, a_z)))
        right = flatten(evaluate(ctx, lambda: fn(a_z, e)))
        target = flatten(a_z)
        for u, v in zip(left + right, target + target):
            eqs.append(_expr(u) == _expr(v))
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*(ctx.side + ctx.exp_facts() + ctx.infinity_facts() + eqs))
    return solver.check(), solver, e


def _z3_const(a):
    if isinstance(a, tuple):
        return tuple(_z3_const(x) for x in a)
    return z3.RealVal(a) if isinstance(a, Fraction) else a


def _expr(x):
    if z3.is_expr(x):
        return x
    if isinstance(x, bool):
        return z3.BoolVal(x)
    return z3.RealVal(Fraction(x)) if isinstance(x, float) else z3.RealVal(x)


def _nice(q: Fraction):
    """A rational as a Python number the interpretations read exactly (int or a float
    equal to it), else None."""
    if q.denominator == 1:
        return int(q)
    f = float(q)
    return f if Fraction(f) == q else None


def audit_identity(g, s: Shape, st: Settings, no_prover: str | None,
                   no_floats: str | None) -> dict:
    solve, solved, why = (UNKNOWN, None, no_prover) if no_prover else _z3_solve(
        g, s, st.timeout_ms)
    candidates = _candidate_elements(s)
    if solved is not None and solved not in candidates:
        candidates.insert(0, solved)
    failures: dict[str, Any] = {}
    best = None
    for e in candidates:
        bad = next((a for a in _check_points(s) if _mismatch(g, e, a)), None)
        if bad is not None:
            failures[show(e)] = bad
            continue
        prop = identity_prop(s, e)
        law = make_law(prop, g)
        res = decide(law, bounded=False, no_prover=no_prover, cases=st.cases,
                     timeout_ms=st.timeout_ms)
        if res["verdict"] == PROVED:
            best = (prop, law, res)
            break
        if res["verdict"] == TESTED and best is None:
            best = (prop, law, res)
    if best is not None:
        prop, law, res = best
        entry = _entry(prop, law, res, g, st, no_floats)
        entry["reals"]["element"] = oracle.plain(prop.element)
        return entry
    prop = Prop("identity", Property.ASSOCIATIVITY, "f(e, a) = a = f(a, e) for some e",
                LICENSES["identity"], ("a",), (s,), None, None)
    tried = ", ".join(f"{k} (fails at a = {show(v)})" for k, v in failures.items())
    infinite_excluded = all(show(e) in failures for e in candidates
                            if any(c in (NEG_INF, POS_INF) for c in flatten([e])))
    if solve == "unsat" and s.kind == "scalar" and infinite_excluded:
        verdict = REFUTED
        reason = (f"no identity: z3 shows no real e satisfies f(e, a) = a = f(a, e) at "
                  f"a ∈ {{{', '.join(show(a) for a in _samples(s))}}}, and e = −∞, +∞ "
                  f"fail: {tried}")
    else:
        verdict = UNKNOWN
        if solve == "unsat":
            reason = ("no identity with finite components (z3: unsat at the sample "
                      "points), and none among the candidates with infinite components; "
                      "elements mixing ±∞ with other values were not excluded")
        else:
            reason = (f"no candidate was proved or tested; tried {tried or 'none'}"
                      + (f"; {why}" if why else ""))
    return {"statement": prop.statement, "family": prop.family.value,
            "reals": {"verdict": verdict, "counterexample": None, "element": None,
                      "method": "z3 solve for e at sample points + mpmath replay of the "
                                "candidates 0, 1, −∞, +∞",
                      "assumptions": [], "reason": reason, "cases": None},
            "float32": _skipped("no identity element to check"),
            "float64": _skipped("no identity element to check"),
            "licenses": None}


def _skipped(note: str) -> dict:
    return {"verdict": "not-evaluated", "exact": None, "cases": 0, "counterexample": None,
            "note": note}


# --------------------------------------------------------------------------- locality
def audit_locality(g, sig: Signature, st: Settings, no_prover: str | None) -> dict:
    n = sig.params[0].size
    vec = sig.params[0]
    scalar_out = sig.result.kind == "scalar"
    m = 1 if scalar_out else sig.result.size
    depends: list[list[int]] = [[] for _ in range(m)]
    witnesses: dict[str, Any] = {}
    weakest = PROVED_BOUNDED
    methods, assumptions, reasons = set(), set(), []
    t0 = time.perf_counter()
    for i in range(m):
        for j in range(n):
            lt, rt = _dependence_templates(i, j, scalar_out)
            prop = Prop(f"independent_{i}_{j}", Property.LOCALITY,
                        f"output {i} does not change when x[{j}] does", LICENSES["locality"],
                        ("x", "y"), (vec, SCALAR), lt, rt, bounded=f"n = {n}")
            law = make_law(prop, g)
            res = decide(law, bounded=True, no_prover=no_prover, cases=LOCALITY_CASES,
                         timeout_ms=st.timeout_ms)
            if res["method"]:
                methods.add(res["method"].split(";")[0])
            assumptions.update(res["assumptions"])
            if res["verdict"] == REFUTED:
                depends[i].append(j)
                witnesses[f"{i},{j}"] = oracle.plain(res["values"])
            elif res["verdict"] == TESTED:
                weakest = TESTED if weakest != UNKNOWN else weakest
            elif res["verdict"] == UNKNOWN:
                weakest = UNKNOWN
                reasons.append(f"output {i}, input {j}: {res['reason']}")
    if scalar_out:
        element = {"depends_on": depends[0], "witnesses": witnesses}
        radius = None
    else:
        per = [max((abs(i - j) for j in d), default=0) if d else None
               for i, d in enumerate(depends)]
        radius = max((r for r in per if r is not None), default=0)
        element = {"radius": radius, "per_output": per, "depends_on": depends,
                   "witnesses": witnesses}
    statement = ("the inputs each output depends on: output i depends on x[j] when "
                 "changing x[j] alone changes it (independence proved by invariance)")
    holds = weakest in HOLDING
    local = (not scalar_out and radius is not None and radius < n - 1) or (
        scalar_out and len(depends[0]) < n)
    licenses = None
    if holds and local:
        licenses = (LICENSES["locality"].replace("r neighbours", f"{radius} neighbours")
                    if not scalar_out else
                    f"sparsity: the result reads only x{depends[0]} of the {n} inputs; "
                    "skip loading the others")
    return {"statement": statement, "family": Property.LOCALITY.value,
            "reals": {"verdict": weakest, "counterexample": None, "element": element,
                      "method": ", ".join(sorted(methods)) or None,
                      "assumptions": sorted(assumptions),
                      "reason": "; ".join(reasons) or None, "cases": None,
                      "bound": f"n = {n}", "seconds": round(time.perf_counter() - t0, 4)},
            "float32": _skipped("dependency structure is checked over ℝ only"),
            "float64": _skipped("dependency structure is checked over ℝ only"),
            "licenses": licenses}


def _dependence_templates(i: int, j: int, scalar_out: bool):
    def replaced(x, y):
        z = list(x)
        z[j] = y
        return z

    if scalar_out:
        return (lambda F, x, y: F(list(x))), (lambda F, x, y: F(replaced(x, y)))
    return (lambda F, x, y: F(list(x))[i]), (lambda F, x, y: F(replaced(x, y))[i])


# --------------------------------------------------------------------------- reports
def _entry(prop: Prop, law: Law, res: dict, g, st: Settings, no_floats: str | None) -> dict:
    values = res.get("values")
    reals = {"verdict": res["verdict"],
             "counterexample": oracle.plain(values) if values is not None else None,
             "element": None, "method": res["method"], "assumptions": res["assumptions"],
             "reason": res["reason"], "cases": res["cases"], "seconds": res["seconds"]}
    if prop.bounded:
        reals["bound"] = prop.bounded
    if values is not None:
        reals["bindings"] = {v.name: oracle.plain(x) for v, x in zip(law.vars, values)}
        reals["steps"] = trace(prop, g, values)
    floats = {}
    for fmt in FLOAT_FORMATS:
        if not st.floats or not prop.floats:
            floats[fmt] = _skipped("float checks not requested")
        else:
            floats[fmt] = float_check(law, fmt, no_floats,
                                      batched=res["verdict"] != REFUTED)
    return {"statement": prop.statement, "family": prop.family.value, "reals": reals,
            **floats, "licenses": prop.licenses if res["verdict"] in HOLDING else None}


def audit_function(fn: types.FunctionType, label: str, example: str | None = None,
                   settings: Settings | None = None) -> dict:
    """The audit report of one function (the ``--json`` document)."""
    global _SETTINGS
    st = settings or Settings()
    _SETTINGS = st
    t0 = time.perf_counter()
    sig = analyse(fn, example)
    g = _wrap(fn, sig)
    hashing = hashing_constructs(fn)
    no_prover = no_floats = None
    if hashing:
        what = ", ".join(hashing)
        no_prover = (f"the prover cannot follow hashing of values ({what}): symbolic "
                     "values equal as numbers would be different keys")
        no_floats = f"hashing of values ({what}) is not followed by the float interpretation"
    props: dict[str, dict] = {}
    if sig.kind == "binary":
        plist = binary_props(sig)
        # identity after associativity/commutativity, the natural reading order
        for prop in plist[:2]:
            props[prop.name] = _run(prop, g, st, no_prover, no_floats)
        props["identity"] = audit_identity(g, sig.params[0], st, no_prover, no_floats)
        for prop in plist[2:]:
            props[prop.name] = _run(prop, g, st, no_prover, no_floats)
    elif sig.kind == "two-argument":
        for prop in two_argument_props(sig):
            props[prop.name] = _run(prop, g, st, no_prover, no_floats)
    elif sig.kind == "unary":
        for prop in unary_props(sig):
            props[prop.name] = _run(prop, g, st, no_prover, no_floats)
    else:
        for prop in vector_props(sig):
            if prop.lhs is None:
                props[prop.name] = _run_generators(prop, g, st, no_prover, no_floats)
            else:
                props[prop.name] = _run(prop, g, st, no_prover, no_floats)
        props["locality"] = audit_locality(g, sig, st, no_prover)
    notes = list(sig.notes)
    notes.append("denominators are assumed nonzero (each property lists the assumptions "
                 "its proof used); the searcher skips inputs where the function raises "
                 "or gives NaN or a complex value")
    if no_prover:
        notes.append(no_prover)
    return {"function": label, "kind": sig.kind,
            "parameters": [s.text() for s in sig.params], "result": sig.result.text(),
            "notes": notes, "properties": props,
            "seconds": round(time.perf_counter() - t0, 3)}


def _run(prop: Prop, g, st: Settings, no_prover, no_floats) -> dict:
    law = make_law(prop, g)
    res = decide(law, bounded=prop.bounded is not None, no_prover=no_prover,
                 cases=st.cases, timeout_ms=st.timeout_ms)
    return _entry(prop, law, res, g, st, no_floats)


def _run_generators(prop: Prop, g, st: Settings, no_prover, no_floats) -> dict:
    """A permutation property from its generators: it holds when it holds for each
    generator (the property composes), fails when one generator refutes it."""
    entries = []
    for sub in _generator_props(prop):
        law = make_law(sub, g)
        res = decide(law, bounded=True, no_prover=no_prover, cases=st.cases,
                     timeout_ms=st.timeout_ms)
        entries.append((res, _entry(sub, law, res, g, st, no_floats)))
        if res["verdict"] == REFUTED:
            return entries[-1][1]
    res = combine_verdicts([r for r, _ in entries])
    entry = dict(entries[-1][1])
    entry["reals"] = dict(entry["reals"], verdict=res["verdict"], method=res["method"],
                          assumptions=res["assumptions"], reason=res["reason"],
                          cases=res["cases"], seconds=res["seconds"])
    entry["statement"] = prop.statement
    for fmt in FLOAT_FORMATS:
        parts = [e[fmt] for _, e in entries]
        bad = next((f for f in parts if f["verdict"] == "inexact"), None)
        if bad is not None:
            entry[fmt] = bad
        elif all(f["verdict"] == "exact" for f in parts):
            entry[fmt] = dict(parts[-1], cases=sum(f.get("cases") or 0 for f in parts))
        else:
            entry[fmt] = next(f for f in parts if f["verdict"] != "exact")
    entry["licenses"] = prop.licenses if res["verdict"] in HOLDING else None
    return entry


def audit(target: str, example: str | None = None, settings: Settings | None = None) -> dict:
    fn, path, name = load_target(target)
    with contextlib.redirect_stdout(io.StringIO()):
        return audit_function(fn, target, example, settings)


# --------------------------------------------------------------------------- tracing
class _Tracer:
    """Records each call of the audited function with its result."""

    def __init__(self, fn: Callable, name: str = "f") -> None:
        self.fn, self.name = fn, name
        self.calls: list[tuple[tuple, Any]] = []

    def __call__(self, *args):
        value = self.fn(*args)
        self.calls.append((args, value))
        return value


def _exact_inputs(values):
    if isinstance(values, (tuple, list)):
        return type(values)(_exact_inputs(v) for v in values)
    if isinstance(values, Fraction):
        return values
    if isinstance(values, int) and not isinstance(values, bool):
        return Fraction(values)  # so that a/b stays exact
    if isinstance(values, float):
        return Fraction(values)
    if isinstance(values, str) and "/" in values:
        return Fraction(values)
    return Fraction(str(values))


def _all_mpf(values):
    if isinstance(values, (tuple, list)):
        return type(values)(_all_mpf(v) for v in values)
    if isinstance(values, Fraction):
        return mpmath.mpf(values.numerator) / values.denominator
    if isinstance(values, str):
        return _all_mpf(_exact_inputs(values)) if "/" in values else mpmath.mpf(values)
    return mpmath.mpf(values)


def _all_exact(x) -> bool:
    if isinstance(x, (tuple, list)):
        return all(_all_exact(v) for v in x)
    return isinstance(x, (int, Fraction, bool)) and not isinstance(x, float)


def trace(prop: Prop, g, values, name: str = "f") -> dict:
    """Both sides evaluated step by step: every call of f with its value. Exact
    rational arithmetic when the function stays rational, else mpmath at 177 bits."""
    try:
        with time_limit(TRACE_SECONDS):
            return _trace(prop, g, values, name)
    except TimeLimit as exc:
        return {"exact": False, "lhs_calls": [], "rhs_calls": [], "lhs": None,
                "rhs": None, "note": f"tracing {exc}"}


def _trace(prop: Prop, g, values, name: str = "f") -> dict:
    fn = MP.rebind(g)
    try:
        exact_vals = _exact_inputs(values)
        lt, rt = _Tracer(fn, name), _Tracer(fn, name)
        lv, rv = prop.lhs(lt, *exact_vals), prop.rhs(rt, *exact_vals)
        if _all_exact([c for _, c in lt.calls + rt.calls] + [lv, rv]):
            return _steps(lt, rt, lv, rv, exact=True)
    except Exception:  # not rational all the way: evaluate in mpmath instead
        pass
    try:
        with mpmath.workprec(oracle.PREC + 64):
            mp_vals = _all_mpf(values)
            lt, rt = _Tracer(fn, name), _Tracer(fn, name)
            lv, rv = prop.lhs(lt, *mp_vals), prop.rhs(rt, *mp_vals)
            return _steps(lt, rt, lv, rv, exact=False)
    except Exception as exc:  # nothing to show beyond the counterexample itself
        return {"exact": False, "lhs_calls": [], "rhs_calls": [], "lhs": None,
                "rhs": None, "note": f"could not trace: {_one_line(exc)}"}


def _steps(lt: _Tracer, rt: _Tracer, lv, rv, exact: bool) -> dict:
    def calls(tr):
        return [{"call": f"{tr.name}({', '.join(show(a) for a in args)})",
                 "value": show(v)} for args, v in tr.calls]
    return {"exact": exact, "lhs_calls": calls(lt), "rhs_calls": calls(rt),
            "lhs": show(lv), "rhs": show(rv)}


def show(x: Any) -> str:
    """A value as text: integers and fractions exactly, ±∞, others to 20 digits."""
    if isinstance(x, (tuple, list)):
        inner = ", ".join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if x == NEG_INF:
            return "−∞"
        if x == POS_INF:
            return "+∞"
        return str(int(x)) if x == int(x) and abs(x) < 2 ** 53 else repr(x)
    if isinstance(x, mpmath.mpf):
        if mpmath.isinf(x):
            return "+∞" if x > 0 else "−∞"
        if mpmath.isnan(x):
            return "nan"
        if x == int(x) and abs(x) < 2 ** 64:
            return str(int(x))
        return mpmath.nstr(x, 20)
    if isinstance(x, mpmath.mpc):
        return mpmath.nstr(x, 12)
    if isinstance(x, str) and x in ("inf", "-inf"):
        return "+∞" if x == "inf" else "−∞"
    return str(x)


# --------------------------------------------------------------------------- CLI
def cmd_audit(args) -> int:
    """``python -m verify audit FILE.py:FUNC [--json] [--example ARGS]``."""
    try:
        report = audit(args.target, getattr(args, "example", None))
    except AuditError as exc:
        print(f"audit: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(report, ensure_ascii=False))
    else:
        render(report)
    return 0


_MARK = {PROVED: "green", PROVED_BOUNDED: "green", TESTED: "yellow", UNKNOWN: "magenta",
         REFUTED: "red", "exact": "green", "inexact": "red", "not-evaluated": "dim"}


def render(report: dict, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    con = console or Console()
    con.print(f"[bold]{report['function']}[/bold]: {report['kind']} "
              f"({', '.join(report['parameters'])} → {report['result']})")
    for note in report["notes"]:
        con.print(f"  [dim]· {note}[/dim]")
    table = Table(show_lines=False)
    for col in ("property", "over ℝ", "float32", "float64"):
        table.add_column(col, overflow="fold")
    for name, p in report["properties"].items():
        r = p["reals"]
        verdict = r["verdict"]
        if r.get("bound") and verdict in (PROVED_BOUNDED,):
            verdict += f" ({r['bound']})"
        if r.get("cases"):
            verdict += f" ({r['cases']} cases)"
        el = r.get("element")
        if name == "identity" and el is not None:
            verdict += f", e = {show(el)}"
        if name == "locality" and el is not None:
            verdict += (f", radius {el['radius']}" if "radius" in el
                        else f", reads x{el['depends_on']}")
        cells = [name, f"[{_MARK.get(r['verdict'], 'white')}]{verdict}[/]"]
        for fmt in FLOAT_FORMATS:
            fv = p[fmt]["verdict"]
            cells.append(f"[{_MARK.get(fv, 'white')}]{fv}[/]")
        table.add_row(*cells)
    con.print(table)
    licensed = [(n, p["licenses"]) for n, p in report["properties"].items() if p["licenses"]]
    if licensed:
        con.print("[bold]What holds licenses[/bold]")
        for name, text in licensed:
            con.print(f"  {name}: {text}")
    for name, p in report["properties"].items():
        r = p["reals"]
        if r["verdict"] == REFUTED and r.get("counterexample") is not None:
            con.print(f"\n[bold red]{name}[/bold red] fails: {p['statement']}")
            con.print("  at " + ", ".join(f"{k} = {show(_unplain(v))}"
                                          for k, v in r["bindings"].items()))
            steps = r.get("steps") or {}
            for side in ("lhs", "rhs"):
                for c in steps.get(f"{side}_calls", []):
                    con.print(f"    {c['call']} = {c['value']}")
                con.print(f"  {'left ' if side == 'lhs' else 'right'} side = "
                          f"{steps.get(side)}")
            if steps and not steps.get("exact"):
                con.print("  [dim](values to 20 digits, computed at 177 bits)[/dim]")
        elif r["verdict"] in (UNKNOWN, REFUTED) and r.get("reason"):
            con.print(f"\n[bold]{name}[/bold]: {r['reason']}")
        elif r.get("reason"):
            con.print(f"\n[bold]{name}[/bold] ({r['verdict']}): {r['reason']}")
        if r.get("assumptions") and r["verdict"] in HOLDING:
            con.print(f"  [dim]{name} assumes: {'; '.join(r['assumptions'])}[/dim]")
        for fmt in FLOAT_FORMATS:
            fv = p[fmt]
            if r["verdict"] == REFUTED:
                break  # failing over ℝ already; the float discrepancy adds nothing
            if fv.get("verdict") == "inexact" and fv.get("counterexample") is not None:
                sides = fv.get("sides", {})
                con.print(f"  [dim]{name} in {fmt}: differs at "
                          f"{show(_unplain(fv['counterexample']))}: "
                          f"{sides.get('lhs')} vs {sides.get('rhs')}[/dim]")


def _unplain(v):
    if isinstance(v, list):
        return tuple(_unplain(x) for x in v)
    return v
