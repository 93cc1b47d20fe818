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
- NaN: the numpy/torch/Triton root and log of a negative, 0/0 inside ``@triton.jit`` and
  NaN literals are NaN, which propagates; each value's NaN condition, and the IEEE
  meaning of a test on it, come from ``verify.engine.nan``.
- Side conditions belong to paths. An operation that raises in Python (``math.sqrt``,
  ``math.log``, ``/`` outside a ``@triton.jit`` function) records ``path ⇒ condition``
  when it runs, path being the branch choices taken so far (``raising``). A partial
  operation whose value outside its domain is not modelled (a division by 0, a log of 0,
  any root or log that raises) also needs its condition where its value is *used*:
  ``verify.engine.definedness`` walks the result and guards each one with the ``If``
  conditions above it, so ``where(s > 0, log(s), 0)`` needs nothing.
- ±∞ literals become symbols below (above) every variable; the assumption is recorded,
  and ``verify.engine.infinity`` refuses (``Unsupported``) any use that a test or an
  operation could tell apart from the real infinity.
- The forking, the Python arithmetic on z3 terms and the join of the paths live in
  ``verify.engine.z3paths``; this module holds the fresh symbols and the word table.
"""
from __future__ import annotations

import math
from fractions import Fraction
from dataclasses import dataclass
from typing import Any

import z3

from laws.core import Var
from verify.engine import domains, mathtext
from verify.engine.infinity import may_be_infinite, test_reads_alike
from verify.engine.linearforms import linear_cases as _linear_cases
from verify.engine.interp import Interpretation, Namespace, Unsupported, variadic
from verify.engine.nan import NanModel, any_of
from verify.engine.shapes import component_names, shape_like
from verify.engine.vocabulary import register
from verify.engine.z3paths import (MAX_BRANCHES_PER_PATH, MAX_PATHS, _ACTIVE,  # noqa: F401
                                   _ORIGINAL_REALVAL, _as_expr, evaluate)


@dataclass
class Partial:
    """A fresh symbol standing for a partial operation's value."""
    kind: str            # "log" | "sqrt" | "power"
    arg: Any             # the argument term
    condition: Any       # what its value needs where it is used (None: nothing)
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
        self.unbounded: dict[int, Any] = {}  # log symbols of the NaN kind, jit divisions
        self.nan = NanModel(self)
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
        if self.nan.used():
            out.append("NaN conditions")
        return out

    def only_rational(self) -> bool:
        """Whether nothing so far needed exp, a log/sqrt symbol, an infinity or a NaN
        literal (a jit 0/0 is no obstacle: the rational method needs every denominator
        nonzero)."""
        return not (self._exp or self.log_symbols or self._inf or self.nan.symbol is not None)

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
                return self.nan.literal()
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
        nan = self.nan.condition(t)  # before simplification cancels r − r
        cases = _linear_cases(z3.simplify(t))
        out = None
        for conds, coeffs, const in reversed(cases):
            term = self._monomial(coeffs, const)
            out = term if out is None else z3.If(z3.And(*conds) if conds else True, term, out)
        return self.nan.poison(nan, out)

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
        which raises outside its domain (the condition then holds on the whole path);
        otherwise NaN where x < 0, and −∞ (not modelled: needed where used) at 0."""
        x = _as_expr(self.const(x), self)
        y = self.fresh("log")
        needed = (x > 0, "log argument positive") if raises else \
            (x != 0, "log argument nonzero (log 0 = −∞)")
        self._partial(y, "log", x, x > 0, [self._E(y) == x], needed, raises)
        if not raises:
            self.unbounded[y.get_id()] = y
        return y

    def sqrt(self, x: Any, raises: bool = False) -> Any:
        """A fresh r with r ≥ 0 ∧ r² = x where x ≥ 0; NaN where x < 0 unless ``raises``
        (Python's math.sqrt, which raises there: a side condition on the path)."""
        x = _as_expr(self.const(x), self)
        r = self.fresh("sqrt")
        needed = (x >= 0, "sqrt argument nonnegative") if raises else None
        self._partial(r, "sqrt", x, x >= 0, [r >= 0, r * r == x], needed, raises)
        return r

    def _partial(self, sym, kind, arg, cond, facts, needed, raises) -> None:
        self.log_symbols.add(sym.get_id())
        self.partial[sym.get_id()] = Partial(kind, arg, *(needed or (None, "")))
        self.guarded.append((cond, facts))
        self.side.append(z3.Implies(cond, z3.And(*facts)))
        if raises:  # a NaN argument gives NaN, no raise
            self.record_raising(any_of(self.nan.condition(arg), cond), needed[1])
        else:
            self.nan.source(sym, arg < 0)

    def real_power(self, term: Any, base: Any, cond: z3.BoolRef, text: str) -> None:
        """``term``, a non-integer power of ``base``, is a real number only where
        ``cond`` holds: needed where its value is used."""
        self.partial[term.get_id()] = Partial("power", base, cond, text)

    def record_raising(self, cond: z3.BoolRef, text: str) -> None:
        """An operation that raises in Python unless ``cond``: needed on this path."""
        taken = _ACTIVE[-1].taken if _ACTIVE else []
        path = z3.And(*[c if choice else z3.Not(c) for c, choice in taken]) \
            if taken else z3.BoolVal(True)
        self.raising.append((path, cond, text))

    def decided_by_form(self, cond: Any, decided: Any) -> None:
        """``cond`` (with its IEEE meaning for NaN, ``verify.engine.nan``) simplified to a
        constant (``s − s == 0``, ``s < s + 1``): refused when it involves a value that may
        be infinite, where the form decides what the value would not — unless the value
        is a stand-in for ±∞ whose test reads the same as at the real infinity
        (``(U − U) == (U − U)`` is false by its NaN guard in both readings)."""
        if not (z3.is_true(decided) or z3.is_false(decided)) or not z3.is_expr(cond) \
                or not may_be_infinite(self, cond):
            return
        if not may_be_infinite(self, cond, stand_ins=False) and \
                test_reads_alike(self, self.nan.test(cond)):
            return
        raise Unsupported(f"the test {mathtext.text(cond)} is decided by its form, but "
                          "the value it tests may be infinite there")

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

        def pair(word, greater):
            """A max or min word: ``word(a, b, greater)`` on terms (see NanModel)."""
            def f(a, b):
                a, b = lift(a), lift(b)
                if not z3.is_expr(a) and not z3.is_expr(b):  # numbers, never NaN here
                    return a if (a >= b if greater else a <= b) else b
                return word(a, b, greater)
            return f

        maximum, minimum = pair(ctx.nan.maximum, True), pair(ctx.nan.maximum, False)

        def where(c, a, b):
            a, b = lift(a), lift(b)
            if isinstance(c, bool):
                return a if c else b
            exact = ctx.nan.test(c)
            decided = z3.simplify(exact)
            ctx.decided_by_form(c, decided)
            if z3.is_true(decided):
                return a
            if z3.is_false(decided):
                return b
            return z3.If(exact, a, b)

        def number_test(word, on_term, on_number):
            def f(x):
                x = lift(x)
                if not z3.is_expr(x):  # a number of the code's own (as Python reads it)
                    return on_number(x)
                return on_term(x)
            f.__name__ = word
            return f

        isnan = number_test("isnan", ctx.nan.isnan, math.isnan)
        isinf = number_test("isinf", ctx.nan.infinite, math.isinf)
        isfinite = number_test("isfinite", ctx.nan.finite, math.isfinite)

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
            ctx.nan.refuse(x, "math.floor")
            if ctx._inf:
                raise Unsupported("math.floor in a function with ±∞ has no z3 encoding")
            return x if x.is_int() else z3.ToInt(x)

        def ceil(x):
            return -floor(-lift(x))

        def finite_only(word, *xs):
            """The terms, where no NaN or ±∞ reaches ``word`` (else Unsupported)."""
            xs = [lift(x) for x in xs]
            for x in xs:
                if z3.is_expr(x):
                    ctx.nan.refuse(x, word)
            if ctx._inf and any(z3.is_expr(x) for x in xs):
                raise Unsupported(f"{word} in a function with ±∞ has no z3 encoding")
            return xs

        def hypot(a, b):
            a, b = finite_only("math.hypot", a, b)
            return ctx.sqrt(a * a + b * b)

        def copysign(a, b):
            """|a| with b's sign, b = 0 read as +0 (over ℝ a zero has no sign)."""
            a, b = finite_only("math.copysign", a, b)
            if not z3.is_expr(b):
                return absolute(a) if b >= 0 else -absolute(a)
            return z3.If(b >= 0, absolute(a), -absolute(a))

        def isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
            """Python's test over ℝ: a = b, or |b − a| within rel_tol·|a|, rel_tol·|b| or
            abs_tol (a float tolerance is its exact double)."""
            a, b = lift(a), lift(b)
            tol, floor_tol = (_exact_real(t) if isinstance(t, float) else lift(t)
                              for t in (rel_tol, abs_tol))
            if not any(z3.is_expr(x) for x in (a, b, tol, floor_tol)):
                return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
            a, b, tol, floor_tol = finite_only("math.isclose", a, b, tol, floor_tol)
            diff = absolute(b - a)
            return z3.Or(a == b, diff <= absolute(tol * b), diff <= absolute(tol * a),
                         diff <= floor_tol)

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
                           nan=float("nan"), isnan=isnan, isinf=isinf,
                           isfinite=isfinite, floor=floor, ceil=ceil,
                           log=math_log, sqrt=lambda x: ctx.sqrt(x, raises=True),
                           trunc=trunc, isclose=isclose,
                           fsum=lambda items: sum((lift(x) for x in items), z3.RealVal(0)),
                           prod=lambda items, start=1: math.prod((lift(x) for x in items),
                                                                 start=lift(start)),
                           hypot=hypot, copysign=copysign,
                           tanh=unsupported("tanh"),
                           log1p=lambda x: ctx.log(1 + x, raises=True),
                           expm1=lambda x: ctx.exp(x) - 1)
        import numpy
        npns = Namespace("np", fallback=numpy, fmax=pair(ctx.nan.fmax, True),
                         fmin=pair(ctx.nan.fmax, False), inf=float("inf"),
                         nan=float("nan"), isnan=isnan, isinf=isinf,
                         isfinite=isfinite, pi=consts["pi"], e=consts["e"], clip=clip, logaddexp=logaddexp,
                         trunc=lambda x: _float_of(trunc(x)), floor=lambda x: _float_of(floor(x)),
                         ceil=lambda x: _float_of(ceil(x)), square=lambda x: lift(x) * lift(x),
                         tanh=unsupported("tanh"), **common)
        def to_float(x=0.0):
            """``float(x)``: a real term is itself over ℝ (as every float operation is
            read exactly), an int term that real, a truth value 1 or 0."""
            if not z3.is_expr(x):
                return float(x)
            if z3.is_bool(x):
                return z3.If(x, z3.RealVal(1), z3.RealVal(0))
            return _float_of(x)

        return Interpretation("z3", tl, mathns,
                              {"max": variadic(pair(ctx.nan.python_max, True), max),
                               "min": variadic(pair(ctx.nan.python_max, False), min),
                               "abs": absolute, "float": to_float},
                              np=npns, torch=npns, literal=_exact_real, unfold=True)


def _float_of(x: Any) -> Any:
    """numpy's floor/ceil/trunc return floats: an int term as a real."""
    return z3.ToReal(x) if z3.is_expr(x) and z3.is_int(x) else x


def _exact_real(x: float | Fraction) -> z3.ArithRef:
    """A float literal as the exact rational value of the double it denotes (a folded
    constant's exact value when given a Fraction)."""
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


register("z3", lambda: Z3Context().interp,
         lambda: (z3.Real("x"), lambda thunk: evaluate(Z3Context(), thunk)),
         "real-valued z3 terms (proofs over ℝ, counterexamples)")
