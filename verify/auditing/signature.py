"""What kind of function is audited: its parameters' and result's shapes, read from the
body (AST) and confirmed by a probing call on mpmath values.

Kinds: ``binary`` (``f(a, b)``, both parameters and the result of one shape, or the
unpacked ``f(a0, …, ak-1, b0, …, bk-1)`` returning k values), ``two-argument`` (shapes
differ), ``vector`` (one parameter used as a sequence, audited at a fixed small length)
and ``unary`` (one scalar). ``wrap`` gives the function the laws call.

Does not cover: functions of more than two parameters (other than the unpacked
combine), ``*args``/``**kwargs``, nested tuples.
"""
from __future__ import annotations

import ast
import contextlib
import dataclasses
import inspect
import io
import textwrap
import types
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import mpmath
import numpy as np

from laws.core import Var
from verify.auditing.load import AuditError, required_parameters
from verify.decide import oracle
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.engine.interp import Unsupported
from verify.engine.mpwords import make_mpmath

DEFAULT_N = 4                 # length at which vector functions are audited
MAX_TUPLE = 6                 # largest tuple state probed
MAX_RESULT = 256              # most components a result may have (each becomes a term)
PROBE_SECONDS = 10            # wall-clock limit of the probing call

MP = make_mpmath()


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


def call_name(node: ast.Call) -> str:
    """The called name: ``f`` for ``f(x)``, ``mode`` for ``statistics.mode(x)``."""
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def function_node(fn: types.FunctionType):
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
            name = call_name(n)
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


# --------------------------------------------------------------------------- shapes
@dataclass(frozen=True)
class Shape:
    """A parameter's or result's shape: scalar, tuple of k, or list (vector) of n."""

    kind: str = "scalar"           # "scalar" | "tuple" | "list"
    size: int = 0
    domain: Any = "real"           # one domain, or one per tuple component

    def var(self, name: str) -> Var:
        if self.kind == "scalar":
            return Var(name, domain=self.domain)
        return Var(name, (self.size,), domain=self.domain, tuple_state=self.kind == "tuple")

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


def _probe(fn, shapes: Sequence[Shape], args: Sequence[Any] | None = None,
           plain: bool = False, integers: bool = False) -> tuple[Any, BaseException | None]:
    """Call ``fn`` on mpmath values of the given shapes (or on the example's values),
    or, ``plain``, the original function on Python floats (``integers``: on Python ints,
    for a function such as ``math.gcd`` that takes nothing else): (result, exception)."""
    if args is None:
        args, k = [], 0
        for s in shapes:
            args.append(s.probe_value(k))
            k += max(s.size, 1)
    else:
        args = [oracle.to_mp(a) for a in args]
    if plain:
        conv = (lambda c: int(mpmath.ceil(c))) if integers else float
        args = [type(a)(conv(c) for c in a) if isinstance(a, (tuple, list)) else conv(a)
                for a in args]
    try:
        with time_limit(PROBE_SECONDS), mpmath.workprec(oracle.PREC), \
                contextlib.redirect_stdout(io.StringIO()):
            return (fn if plain else MP.rebind(fn))(*args), None
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
    required = [p.name for p in required_parameters(inspect.signature(fn), fn.__name__)]
    arity = len(required)
    node = function_node(fn)
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
    unmodelled: BaseException | None = None
    for shapes in candidates:
        result, exc = _probe(fn, shapes, example_args)
        plain_note, on_ints = None, False
        if isinstance(exc, (Unsupported, TypeError)):
            # a word the oracle does not model, or an operation mpf lacks (a ^ b): the
            # shapes from Python itself, and the properties left to the searcher or to
            # unknown, each with the reason
            if isinstance(exc, Unsupported):
                unmodelled = unmodelled or exc
            result, plain_exc = _probe(fn, shapes, example_args, plain=True)
            if isinstance(plain_exc, TypeError):
                result, plain_exc = _probe(fn, shapes, example_args, plain=True,
                                           integers=True)
                on_ints = plain_exc is None
            if plain_exc is None:
                plain_note = (f"shapes taken from a plain-Python call: "
                              f"{one_line(exc)}")
                exc = None
            if on_ints:
                plain_note = (f"{plain_note}; it raises on floats and runs on ints, so its "
                              "parameters are taken as integers")
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
        if out.kind != "scalar" and out.size > MAX_RESULT:
            raise AuditError(f"{fn.__name__} returned a {type(result).__name__} of "
                             f"{out.size} values: at most {MAX_RESULT} are supported")
        if out.kind == "list" and not (arity == 1 and shapes[0].kind != "scalar"):
            out = Shape("tuple", out.size)
        sig = _classify(fn, shapes, out, unpacked, example is not None)
        if plain_note:
            sig.notes.append(plain_note)
        if on_ints:  # Python runs it on ints and raises on floats: its domain is ℤ
            sig = dataclasses.replace(sig, params=tuple(
                dataclasses.replace(s, domain="integer") for s in sig.params))
        return sig
    if unmodelled is not None and candidates:
        # a word no interpretation models, and no plain-Python call runs (a @triton.jit
        # function's words run only in a kernel): the shapes the body suggests, and every
        # property left to unknown with the word named, rather than no audit at all
        shapes = candidates[0]
        out = SCALAR if ret_len is None else Shape("tuple", ret_len)
        sig = _classify(fn, shapes, out, unpacked, example is not None)
        sig.notes.append(f"shapes taken from the code, not from a call: {one_line(unmodelled)}")
        return sig
    what = f"{type(failure).__name__}: {one_line(failure)}" if failure else "no shape fits"
    if example is not None:
        raise AuditError(f"{fn.__name__} raised on the --example call ({what})")
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
def wrap(fn, sig: Signature) -> Callable:
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

