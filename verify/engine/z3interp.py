"""The z3 interpretation: law sides become real-valued z3 terms.

- ``max``/``min``/``where``/``abs`` become ``If``.
- Python ``if`` on a symbolic condition forks: the function is re-run once per path
  (recorded branch choices) and the results are joined with ``If``. z3's own
  ``__bool__`` would silently answer *structural* equality for ``if a == b``; it is
  replaced while a function runs here.
- ``exp``: each leaf exponent (after pushing ``If`` to the top) must be an
  integer-linear form Σ cᵥ·v over base variables; ``exp(v)`` becomes a fresh positive
  real Eᵥ, the exponential the monomial Π Eᵥ^cᵥ, with order preservation
  (u ≥ v) == (Eᵤ ≥ Eᵥ) and (v ≥ 0) == (Eᵥ ≥ 1). This over-approximates exp, so an unsat
  query is a proof and a sat model is only a candidate, replayed before it is believed.
- ``log(x)`` is a fresh base y with ``x > 0 ⇒ Eᵧ = x``; ``sqrt(x)`` a fresh r with
  ``x ≥ 0 ⇒ r ≥ 0 ∧ r² = x``. The facts hold only where the argument is in the
  function's domain, so a root or a log on one branch never shrinks the domain of another.
- Side conditions belong to paths. An operation that raises in Python (``math.sqrt``,
  ``math.log``, ``/`` outside a ``@triton.jit`` function) records ``path ⇒ condition``
  when it runs, path being the branch choices taken so far (``raising``). Every partial
  operation (division, root, log, whichever library) also needs its condition where its
  value is *used*: ``verify.engine.definedness`` walks the result and guards each one
  with the ``If`` conditions above it, so ``where(s ≥ 0, √s, −√−s)`` needs nothing.
- ±∞ literals become symbols below (above) every variable; the assumption is recorded,
  and ``verify.engine.infinity`` refuses (``Unsupported``) any use that a test or an
  operation could tell apart from the real infinity.
- Python's ``if`` on a symbolic condition forks; z3's own code keeps z3's structural
  ``__bool__``. Both are recognised by where the calling code lives (z3's package
  directory, the checker's), never by a module name.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import z3

from laws.core import Var
import verify
from verify.engine import domains, mathtext
from verify.engine import interp as _interp
from verify.engine.interp import Interpretation, Namespace, Unsupported, variadic
from verify.engine.shapes import component_names, shape_like

MAX_PATHS = 256
MAX_BRANCHES_PER_PATH = 64

_Z3_DIR = os.path.realpath(os.path.dirname(z3.__file__)) + os.sep
_CHECKER_DIR = os.path.realpath(os.path.dirname(verify.__file__)) + os.sep
_DIR_OF: dict[str, tuple[bool, bool]] = {}


def _origin(filename: str) -> tuple[bool, bool]:
    """(is z3's own code, is the checker's own code) for a code object's file."""
    known = _DIR_OF.get(filename)
    if known is None:
        real = os.path.realpath(filename) if not filename.startswith("<") else filename
        known = (real.startswith(_Z3_DIR), real.startswith(_CHECKER_DIR))
        _DIR_OF[filename] = known
    return known


@dataclass
class Partial:
    """A fresh symbol standing for a partial operation's value."""
    kind: str            # "log" | "sqrt"
    arg: Any             # the argument term
    condition: Any       # where the operation is defined
    text: str            # how the condition is described


class Z3Context:
    """Fresh symbols and side conditions for one query."""

    def __init__(self) -> None:
        self.side: list[z3.BoolRef] = []        # domain facts and facts about fresh symbols
        self.domain: list[z3.BoolRef] = []      # the declared domains of the variables
        self.assumptions: list[tuple[str, Any]] = []  # (text, None): encoding notes
        self.log_symbols: set[int] = set()     # fresh symbols standing for log/sqrt
        self.partial: dict[int, Partial] = {}  # fresh symbol id -> its operation
        self.guarded: list[tuple[z3.BoolRef, list[z3.BoolRef]]] = []  # (cond, facts)
        # (path, condition, text): operations that raise in Python when evaluated
        self.raising: list[tuple[z3.BoolRef, z3.BoolRef, str]] = []
        self.branch_conditions: list[z3.BoolRef] = []  # every forked condition
        self.exp_base: dict[int, z3.ArithRef] = {}  # E symbol id -> its base
        self.variables: dict[str, z3.ExprRef] = {}  # law variable components by name
        self._exp: dict[int, z3.ArithRef] = {}  # base id -> E symbol
        self._bases: dict[int, z3.ArithRef] = {}
        self._e_ids: set[int] = set()
        self._inf: dict[str, z3.ArithRef] = {}
        self._fresh = 0
        self.interp = self._make_interpretation()
        self._ONE = None
        self.max_paths = 1

    # ---------------------------------------------------------------- variables
    def make(self, var: Var) -> Any:
        """z3 values for a law variable, with its domain facts in ``side``."""
        doms = var.component_domains()
        labels = component_names(var)
        comps = [self._scalar(label, dom) for label, dom in zip(labels, doms)]
        return shape_like(var, comps)

    def _scalar(self, label: str, domain: str) -> z3.ArithRef:
        dom = domains.get(domain)
        v = z3.Int(label) if dom.integer else z3.Real(label)
        self.variables[label] = v
        facts = dom.facts(v)
        self.side.extend(facts)
        self.domain.extend(facts)
        return v

    def fresh(self, prefix: str) -> z3.ArithRef:
        self._fresh += 1
        return z3.Real(f"{prefix}!{self._fresh}")

    def encodings(self) -> list[str]:
        out = []
        if self._exp:
            out.append("exp encoding")
        if self.log_symbols:
            out.append("log/sqrt as fresh symbols")
        if self.max_paths > 1:
            out.append("branches forked")
        return out

    def only_rational(self) -> bool:
        """Whether nothing so far needed exp, a log/sqrt symbol or an infinity."""
        return not (self._exp or self.log_symbols or self._inf)

    # ---------------------------------------------------------------- infinities
    def infinity(self, sign: int) -> z3.ArithRef:
        key = "+inf" if sign > 0 else "-inf"
        if key not in self._inf:
            sym = z3.Real("pos_inf" if sign > 0 else "neg_inf")
            self._inf[key] = sym
            self.assumptions.append((
                f"{'∞' if sign > 0 else '−∞'} is modeled as a real "
                f"{'above' if sign > 0 else 'below'} every variable", None))
        return self._inf[key]

    def infinity_facts(self) -> list[z3.BoolRef]:
        facts = []
        reals = [v for v in self.variables.values()]
        for key, sym in self._inf.items():
            for v in reals:
                facts.append(sym < v if key == "-inf" else sym > v)
            facts.append(sym < -1 if key == "-inf" else sym > 1)
        if len(self._inf) == 2:
            facts.append(self._inf["-inf"] < self._inf["+inf"])
        return facts

    def const(self, x: Any) -> Any:
        if isinstance(x, float):
            if math.isinf(x):
                return self.infinity(1 if x > 0 else -1)
            if math.isnan(x):
                raise Unsupported("NaN literal has no real meaning")
        return x

    # ---------------------------------------------------------------- exp / log / sqrt
    def _E(self, base: z3.ArithRef) -> z3.ArithRef:
        key = base.get_id()
        if key not in self._exp:
            e = z3.Real(f"E[{base}]")
            self._exp[key] = e
            self._bases[key] = base
            self.exp_base[e.get_id()] = base
            self._e_ids.add(e.get_id())
            self.side.append(e > 0)
        return self._exp[key]

    def exp(self, t: Any) -> Any:
        t = self.const(t)
        if self._inf and z3.is_expr(t):
            from verify.engine.infinity import check_term
            check_term(self, t)  # exp(∞ − ∞) is NaN, not exp(0)
        if not z3.is_expr(t):
            value = Fraction(t)
            if value == 0:
                return z3.RealVal(1)
            t = z3.RealVal(value)
        cases = _linear_cases(z3.simplify(t))
        out = None
        for conds, coeffs, const in reversed(cases):
            term = self._monomial(coeffs, const)
            out = term if out is None else z3.If(z3.And(*conds) if conds else True, term, out)
        return out

    def _monomial(self, coeffs: dict[int, tuple[z3.ArithRef, Fraction]], const: Fraction):
        items = list(coeffs.values())
        if const != 0:
            if self._ONE is None:
                self._ONE = z3.Real("one")
                self.side.append(self._ONE == 1)
            items.append((self._ONE, const))
        num, den = [], []
        for base, c in items:
            if c.denominator != 1:
                raise Unsupported(f"exp with a non-integer coefficient {c} on {base}")
            e = self._E(base)
            (num if c > 0 else den).extend([e] * abs(int(c)))
        top = _product(num)
        return top if not den else top / _product(den)

    def log(self, x: Any, raises: bool = False) -> Any:
        """A fresh base y with Eᵧ = x where x > 0. ``raises``: Python's math.log,
        which raises outside its domain (the condition then holds on the whole path)."""
        x = _as_expr(self.const(x), self)
        y = self.fresh("log")
        self._partial(y, "log", x, x > 0, "log argument positive", [self._E(y) == x],
                      raises)
        return y

    def sqrt(self, x: Any, raises: bool = False) -> Any:
        x = _as_expr(self.const(x), self)
        r = self.fresh("sqrt")
        self._partial(r, "sqrt", x, x >= 0, "sqrt argument nonnegative",
                      [r >= 0, r * r == x], raises)
        return r

    def _partial(self, sym, kind, arg, cond, text, facts, raises) -> None:
        self.log_symbols.add(sym.get_id())
        self.partial[sym.get_id()] = Partial(kind, arg, cond, text)
        self.guarded.append((cond, facts))
        self.side.append(z3.Implies(cond, z3.And(*facts)))
        if raises:
            self.record_raising(cond, text)

    def record_raising(self, cond: z3.BoolRef, text: str) -> None:
        """An operation that raises in Python unless ``cond``: needed on this path."""
        taken = _ACTIVE[-1].taken if _ACTIVE else []
        path = z3.And(*[c if choice else z3.Not(c) for c, choice in taken]) \
            if taken else z3.BoolVal(True)
        self.raising.append((path, cond, text))

    def decided_by_form(self, cond: Any, decided: Any) -> None:
        """``cond`` simplified to a constant (``r == r``, ``s − s == 0``): refused when
        it involves a value that may be NaN or infinite (a root or log symbol, a
        stand-in for ±∞), where the form decides what the value would not."""
        if (z3.is_true(decided) or z3.is_false(decided)) and z3.is_expr(cond) and (
                self.mentions_fresh(cond) or self._mentions_inf(cond)):
            raise Unsupported(f"the test {mathtext.text(cond)} is decided by its form, but "
                              "the value it tests may be NaN or infinite there")

    def _mentions_inf(self, t: Any) -> bool:
        if not self._inf:
            return False
        ids = {s.get_id() for s in self._inf.values()}
        seen, stack = set(), [t]
        while stack:
            u = stack.pop()
            if u.get_id() in seen:
                continue
            seen.add(u.get_id())
            if u.get_id() in ids:
                return True
            if z3.is_app(u):
                stack.extend(u.children())
        return False

    def mentions_fresh(self, t: Any) -> bool:
        """Whether a term contains a log/sqrt symbol (then compare through exp)."""
        if not z3.is_expr(t) or not self.log_symbols:
            return False
        seen, stack = set(), [t]
        while stack:
            u = stack.pop()
            if u.get_id() in seen:
                continue
            seen.add(u.get_id())
            if u.get_id() in self.log_symbols:
                return True
            if z3.is_app(u):
                stack.extend(u.children())
        return False

    def exp_facts(self) -> list[z3.BoolRef]:
        """Order preservation between every pair of bases, and against 0."""
        facts = []
        keys = list(self._bases)
        for i, ki in enumerate(keys):
            u, eu = self._bases[ki], self._exp[ki]
            facts.append((u >= 0) == (eu >= 1))
            for kj in keys[i + 1:]:
                v, ev = self._bases[kj], self._exp[kj]
                facts.append((u >= v) == (eu >= ev))
                facts.append((v >= u) == (ev >= eu))
        return facts

    def is_exp_monomial(self, t: z3.ExprRef) -> bool:
        if t.get_id() in self._e_ids:
            return True
        if z3.is_mul(t):
            return all(self.is_exp_monomial(c) for c in t.children())
        return z3.is_rational_value(t)

    # ---------------------------------------------------------------- vocabulary
    def _make_interpretation(self) -> Interpretation:
        """The vocabulary's z3 meanings, one entry per word (a table: long, flat)."""
        ctx = self

        def lift(x):
            return ctx.const(x)

        def maximum(a, b):
            a, b = lift(a), lift(b)
            if not z3.is_expr(a) and not z3.is_expr(b):
                return a if a >= b else b
            return z3.If(a >= b, a, b)

        def minimum(a, b):
            a, b = lift(a), lift(b)
            if not z3.is_expr(a) and not z3.is_expr(b):
                return a if a <= b else b
            return z3.If(a <= b, a, b)

        def where(c, a, b):
            a, b = lift(a), lift(b)
            if isinstance(c, bool):
                return a if c else b
            decided = z3.simplify(c)
            ctx.decided_by_form(c, decided)
            if z3.is_true(decided):
                return a
            if z3.is_false(decided):
                return b
            return z3.If(c, a, b)

        def absolute(x):
            x = lift(x)
            if not z3.is_expr(x):
                return abs(x)
            return z3.If(x >= 0, x, -x)

        def unsupported(name):
            def f(*_a, **_k):
                raise Unsupported(f"{name} has no z3 encoding")
            f.unsupported = f"{name} has no z3 encoding"
            return f

        def floor(x):
            x = lift(x)
            if not z3.is_expr(x):
                return math.floor(x)
            if ctx._inf:
                raise Unsupported("math.floor in a function with ±∞ has no z3 encoding")
            return x if x.is_int() else z3.ToInt(x)

        def ceil(x):
            return -floor(-lift(x))

        def math_log(x, base=None):
            if base is not None:
                raise Unsupported("math.log with a base has no z3 encoding")
            return ctx.log(x, raises=True)

        def trunc(x):
            x = lift(x)
            if not z3.is_expr(x):
                return math.trunc(x)
            return z3.If(x >= 0, floor(x), -floor(-x))

        def clip(x, lo, hi):
            return minimum(maximum(x, lo), hi)

        def logaddexp(a, b):
            m = maximum(a, b)
            return m + ctx.log(ctx.exp(lift(a) - m) + ctx.exp(lift(b) - m))

        common = dict(maximum=maximum, minimum=minimum, where=where, abs=absolute,
                      exp=ctx.exp, log=ctx.log, sqrt=ctx.sqrt,
                      fma=lambda a, b, c: a * b + c)
        tl = Namespace("tl", exp2=unsupported("exp2"), log2=unsupported("log2"),
                       sigmoid=lambda x: 1 / (1 + ctx.exp(-x)), **common)
        consts = {k: _exact_real(getattr(math, k)) for k in ("pi", "e", "tau")}
        mathns = Namespace("math", fabs=absolute, inf=float("inf"), exp=ctx.exp, **consts,
                           floor=floor, ceil=ceil,
                           log=math_log, sqrt=lambda x: ctx.sqrt(x, raises=True),
                           trunc=trunc,
                           tanh=unsupported("tanh"),
                           log1p=lambda x: ctx.log(1 + x, raises=True),
                           expm1=lambda x: ctx.exp(x) - 1)
        import numpy
        npns = Namespace("np", fallback=numpy, fmax=maximum, fmin=minimum, inf=float("inf"),
                         pi=consts["pi"], e=consts["e"], clip=clip, logaddexp=logaddexp,
                         trunc=lambda x: _float_of(trunc(x)), floor=lambda x: _float_of(floor(x)),
                         ceil=lambda x: _float_of(ceil(x)), square=lambda x: lift(x) * lift(x),
                         tanh=unsupported("tanh"), **common)
        return Interpretation("z3", tl, mathns,
                              {"max": variadic(maximum, max),
                               "min": variadic(minimum, min), "abs": absolute},
                              np=npns, torch=npns, literal=_exact_real)


def _float_of(x: Any) -> Any:
    """numpy's floor/ceil/trunc return floats: an int term as a real."""
    return z3.ToReal(x) if z3.is_expr(x) and z3.is_int(x) else x


def _exact_real(x: float) -> z3.ArithRef:
    """A float literal as the exact rational value of the double it denotes."""
    if math.isinf(x) or math.isnan(x):
        return x  # handled by Z3Context.const (an infinity symbol, or unsupported)
    return _ORIGINAL_REALVAL(Fraction(x))


def _product(items):
    if not items:
        return z3.RealVal(1)
    out = items[0]
    for x in items[1:]:
        out = out * x
    return out


# --------------------------------------------------------------------------- linear forms
def _linear_cases(t: z3.ExprRef):
    """[(conditions, {id: (base, coeff)}, const)] with If pushed to the top."""
    if z3.is_rational_value(t) or z3.is_int_value(t):
        return [([], {}, Fraction(str(t.as_fraction() if z3.is_rational_value(t) else t.as_long())))]
    if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return [([], {t.get_id(): (t, Fraction(1))}, Fraction(0))]
    k = t.decl().kind() if z3.is_app(t) else None
    if k == z3.Z3_OP_ITE:
        c, a, b = t.children()
        return ([([c] + cs, co, k0) for cs, co, k0 in _linear_cases(a)]
                + [([z3.Not(c)] + cs, co, k0) for cs, co, k0 in _linear_cases(b)])
    if k == z3.Z3_OP_TO_REAL:
        return _linear_cases(t.arg(0))
    if k == z3.Z3_OP_ADD:
        out = [([], {}, Fraction(0))]
        for child in t.children():
            out = [(c1 + c2, _add(co1, co2), k1 + k2)
                   for c1, co1, k1 in out for c2, co2, k2 in _linear_cases(child)]
        return out
    if k == z3.Z3_OP_SUB:
        first, *rest = t.children()
        out = _linear_cases(first)
        for child in rest:
            out = [(c1 + c2, _add(co1, _scale(co2, -1)), k1 - k2)
                   for c1, co1, k1 in out for c2, co2, k2 in _linear_cases(child)]
        return out
    if k == z3.Z3_OP_UMINUS:
        return [(c, _scale(co, -1), -k0) for c, co, k0 in _linear_cases(t.arg(0))]
    if k == z3.Z3_OP_MUL:
        factor = Fraction(1)
        symbolic = []
        for child in t.children():
            if z3.is_rational_value(child) or z3.is_int_value(child):
                factor *= Fraction(str(child.as_fraction() if z3.is_rational_value(child)
                                       else child.as_long()))
            else:
                symbolic.append(child)
        if len(symbolic) == 1:
            return [(c, _scale(co, factor), k0 * factor) for c, co, k0 in _linear_cases(symbolic[0])]
        if not symbolic:
            return [([], {}, factor)]
    if k == z3.Z3_OP_DIV:
        num, den = t.children()
        if z3.is_rational_value(den):
            d = Fraction(str(den.as_fraction()))
            if d != 0:
                return [(c, _scale(co, 1 / d), k0 / d) for c, co, k0 in _linear_cases(num)]
    raise Unsupported(f"exp of a non-linear exponent: {t}")


def _add(a, b):
    out = dict(a)
    for key, (base, c) in b.items():
        if key in out:
            out[key] = (base, out[key][1] + c)
        else:
            out[key] = (base, c)
    return {k: v for k, v in out.items() if v[1] != 0}


def _scale(a, s):
    return {k: (base, c * s) for k, (base, c) in a.items() if c * s != 0}


# --------------------------------------------------------------------------- forking
class _Branches:
    def __init__(self, prefix: list[bool]) -> None:
        self.prefix = prefix
        self.taken: list[tuple[z3.BoolRef, bool]] = []


_ACTIVE: list[_Branches] = []
_ORIGINAL_BOOL = z3.AstRef.__bool__
_ORIGINAL_REALVAL = z3.z3.RealVal


def _forking_bool(self):
    if z3.is_true(self):
        return True
    if z3.is_false(self):
        return False
    if not _ACTIVE or _origin(sys._getframe(1).f_code.co_filename)[0]:
        return _ORIGINAL_BOOL(self)
    simplified = z3.simplify(self)
    if _CTX_FOR_INF:
        _CTX_FOR_INF[-1].decided_by_form(self, simplified)
    if z3.is_true(simplified):
        return True
    if z3.is_false(simplified):
        return False
    br = _ACTIVE[-1]
    i = len(br.taken)
    if i >= MAX_BRANCHES_PER_PATH:
        raise Unsupported(f"more than {MAX_BRANCHES_PER_PATH} symbolic branches on one path")
    choice = br.prefix[i] if i < len(br.prefix) else True
    br.taken.append((self, choice))
    if _CTX_FOR_INF:
        _CTX_FOR_INF[-1].branch_conditions.append(self)
    return choice


# every z3 term class that defines its own __hash__ (ExprRef calls AstRef's)
_HASHED = [c for c in (z3.AstRef, z3.ExprRef, z3.SortRef, z3.FuncDeclRef)
           if "__hash__" in c.__dict__]
_ORIGINAL_HASH = {c: c.__dict__["__hash__"] for c in _HASHED}


def _refusing_hash(self):
    # A dict, set or Counter keyed by symbolic values would compare keys by their
    # structural hash and never ask whether two symbols are equal: no fork, a wrong
    # answer. Library code (z3's own, the checker's) may still hash terms.
    if not _ACTIVE or any(_origin(sys._getframe(1).f_code.co_filename)):
        return self.hash()
    raise Unsupported("the function hashes a symbolic value (dict, set, Counter, "
                      "statistics.mode...), which the prover cannot follow")


_CTX_FOR_INF: list[Z3Context] = []


def _realval(val, ctx=None):
    if isinstance(val, float):
        if _CTX_FOR_INF and math.isinf(val):
            return _CTX_FOR_INF[-1].infinity(1 if val > 0 else -1)
        if _CTX_FOR_INF and math.isnan(val):
            raise Unsupported("NaN literal has no real meaning")
        if math.isfinite(val):  # the double itself, not the decimal its repr spells
            return _ORIGINAL_REALVAL(Fraction(val), ctx)
    return _ORIGINAL_REALVAL(val, ctx)


_ORIGINAL_DIV = z3.ArithRef.__truediv__
_ORIGINAL_RDIV = z3.ArithRef.__rtruediv__


def _record_division(den) -> None:
    """Python's ``/`` raises on a zero denominator; inside a ``@triton.jit`` function it
    gives ±∞ or NaN instead, which matters only where the value is used."""
    frame = sys._getframe(2)
    if any(_origin(frame.f_code.co_filename)) or frame.f_code in _interp.JIT_CODES:
        return
    try:
        den = _as_expr(den)
    except Unsupported:
        return  # not a number: z3 itself will refuse the division
    if z3.is_rational_value(den) or z3.is_int_value(den) or not z3.is_arith(den):
        return
    ctx = _CTX_FOR_INF[-1]
    if ctx.is_exp_monomial(den):
        return
    ctx.record_raising(den != 0, " ".join(str(den).split()) + " ≠ 0")


def _dividing(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    if _both_int(self, other):  # Python's int / int is true division, z3's is not
        return _ORIGINAL_DIV(_to_real(self), _to_real(other))
    return _ORIGINAL_DIV(self, other)


def _rdividing(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    if _both_int(self, other):
        return _ORIGINAL_DIV(_to_real(other), _to_real(self))
    return _ORIGINAL_RDIV(self, other)


def _is_int(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return z3.is_expr(x) and z3.is_arith(x) and x.is_int()


def _both_int(a, b) -> bool:
    return _is_int(a) and _is_int(b)


def _to_real(x):
    if isinstance(x, int):
        return _ORIGINAL_REALVAL(x)
    if z3.is_int_value(x):
        return _ORIGINAL_REALVAL(x.as_long())
    return z3.ToReal(x) if x.is_int() else x


def _arith(x) -> z3.ArithRef:
    if isinstance(x, bool) or (z3.is_expr(x) and not z3.is_arith(x)):
        raise Unsupported("floor division of a truth value")
    if isinstance(x, int):
        return z3.IntVal(x)
    return _as_expr(x)


def _floor_pair(a, b):
    """Python's ``divmod(a, b)``: ⌊a/b⌋ (z3's ToInt is the floor) and a − b·⌊a/b⌋, so
    the remainder has the divisor's sign; ints give ints, anything else reals."""
    if _CTX_FOR_INF and _CTX_FOR_INF[-1]._inf:
        raise Unsupported("floor division in a function with ±∞ has no z3 encoding "
                          "(Python's inf // x is NaN)")
    a, b = _arith(a), _arith(b)
    q = z3.ToInt(_ORIGINAL_DIV(_to_real(a), _to_real(b)))
    if not _both_int(a, b):
        q = z3.ToReal(q)
    return q, a - b * q


def _floordividing(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)[0]


def _rfloordividing(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)[0]


def _modulo(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)[1]


def _rmodulo(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)[1]


def _divmod(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)


def _rdivmod(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)


# Python's arithmetic on z3 terms while a function runs symbolically: true division
# records its side condition, floor division and % follow Python (z3's own % is the
# SMT-LIB one, nonnegative, and only for ints).
_PATCHED = {"__truediv__": _dividing, "__rtruediv__": _rdividing,
            "__floordiv__": _floordividing, "__rfloordiv__": _rfloordividing,
            "__mod__": _modulo, "__rmod__": _rmodulo, "__divmod__": _divmod,
            "__rdivmod__": _rdivmod}
_UNPATCHED = {name: z3.ArithRef.__dict__.get(name) for name in _PATCHED}


@contextlib.contextmanager
def _symbolic(ctx: Z3Context, branches: _Branches):
    _ACTIVE.append(branches)
    _CTX_FOR_INF.append(ctx)
    z3.AstRef.__bool__ = _forking_bool
    for cls in _HASHED:
        cls.__hash__ = _refusing_hash
    z3.z3.RealVal = _realval
    for name, method in _PATCHED.items():
        setattr(z3.ArithRef, name, method)
    try:
        yield
    finally:
        _ACTIVE.pop()
        _CTX_FOR_INF.pop()
        if not _ACTIVE:
            z3.AstRef.__bool__ = _ORIGINAL_BOOL
            for cls in _HASHED:
                cls.__hash__ = _ORIGINAL_HASH[cls]
            z3.z3.RealVal = _ORIGINAL_REALVAL
            for name, method in _UNPATCHED.items():
                if method is None:
                    delattr(z3.ArithRef, name)
                else:
                    setattr(z3.ArithRef, name, method)


def evaluate(ctx: Z3Context, fn: Callable[[], Any]) -> Any:
    """Run ``fn()`` (already rebound to ``ctx.interp``) over every symbolic path and
    join the results with ``If``."""
    paths: list[tuple[list[tuple[z3.BoolRef, bool]], Any]] = []
    stack: list[list[bool]] = [[]]
    while stack:
        prefix = stack.pop()
        br = _Branches(prefix)
        with _symbolic(ctx, br):
            try:
                result = fn()
            except Unsupported:
                raise
            except AssertionError:  # an assert is a precondition: this path is outside
                result = _ASSERTED
            except Exception as exc:  # the function cannot run on symbolic values
                raise Unsupported(f"the function failed on symbolic values: "
                                  f"{type(exc).__name__}: {exc}") from exc
        for j in range(len(prefix), len(br.taken)):
            stack.append([c for _, c in br.taken[:j]] + [not br.taken[j][1]])
        paths.append((br.taken, result))
        if len(paths) > MAX_PATHS:
            raise Unsupported(f"more than {MAX_PATHS} symbolic paths")
    excluded = [taken for taken, value in paths if value is _ASSERTED]
    paths = [(taken, value) for taken, value in paths if value is not _ASSERTED]
    if not paths:
        raise Unsupported("every path of the function fails an assert")
    for taken in excluded:
        cond = z3.Not(z3.And(*[c if choice else z3.Not(c) for c, choice in taken]))
        ctx.side.append(cond)
        ctx.assumptions.append((f"precondition (assert): {mathtext.text(z3.simplify(cond))}",
                                None))
    ctx.max_paths = max(ctx.max_paths, len(paths))
    result = paths[-1][1]
    for taken, value in reversed(paths[:-1]):
        cond = z3.And(*[c if choice else z3.Not(c) for c, choice in taken])
        result = _join(ctx, cond, value, result)
    return result


_ASSERTED = object()  # a path on which an assert failed


def _join(ctx, cond, a, b):
    if isinstance(a, (tuple, list)):
        if not isinstance(b, (tuple, list)) or len(a) != len(b):
            raise Unsupported("branches return values of different shapes")
        return type(a)(_join(ctx, cond, x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        out = np.empty(a.shape, dtype=object)
        for idx in np.ndindex(*a.shape):
            out[idx] = _join(ctx, cond, a[idx], b[idx])
        return out
    if isinstance(a, bool) and isinstance(b, bool):
        return z3.If(cond, z3.BoolVal(a), z3.BoolVal(b))
    a, b = _as_expr(a, ctx), _as_expr(b, ctx)
    if z3.is_bool(a) != z3.is_bool(b):
        raise Unsupported("branches return a truth value on one side and a number on "
                          "the other")
    return z3.If(cond, a, b)


def _as_expr(x, ctx: Z3Context | None = None):
    if z3.is_expr(x):
        return x
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, float):
        if math.isinf(x):
            ctx = ctx or (_CTX_FOR_INF[-1] if _CTX_FOR_INF else None)
            if ctx is None:
                raise Unsupported("an infinity outside a symbolic evaluation")
            return ctx.infinity(1 if x > 0 else -1)
        if math.isnan(x):
            raise Unsupported("NaN has no real meaning")
        return z3.RealVal(Fraction(x))
    if isinstance(x, (int, Fraction)):
        return z3.RealVal(x)
    raise Unsupported(f"a {type(x).__name__} value has no z3 meaning")
