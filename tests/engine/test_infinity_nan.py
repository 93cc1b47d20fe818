"""Arithmetic on the stand-ins for ±∞: NaN where IEEE (and Python's floats) give NaN,
isinf/isfinite as regions, and what is still refused."""
import math

import numpy as np
import pytest
import z3

from laws.core import Law, Property, Var
from verify.decide.check import check_law
from verify.decide.prover import prove
from verify.engine.interp import Unsupported
from verify.engine.z3interp import Z3Context, evaluate

a, b = z3.Reals("a b")


def _run(fn, *args):
    ctx = Z3Context()
    return ctx, evaluate(ctx, lambda: ctx.interp.rebind(fn)(*args))


def _valid(claim) -> bool:
    s = z3.Solver()
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


def _law(lhs, rhs):
    return Law(id="t.infnan", property=Property.SYMMETRY, statement="test", licenses="test",
               vars=(Var("a"), Var("b")), lhs=lhs, rhs=rhs)


@pytest.mark.parametrize("fn, where_nan", [
    (lambda x: x + math.inf - math.inf, True),                   # ∞ − ∞
    (lambda x: (x - math.inf) * 0.0, True),                      # −∞ · 0
    (lambda x: x * math.inf, a == 0),                            # 0 · ∞ at x = 0 only
    (lambda x: (x + math.inf) / math.inf, True),                 # ∞ / ∞
    (lambda x: math.exp(x - math.inf) * math.inf, True),         # exp(−∞) = 0, 0 · ∞
    (lambda x: np.sqrt(x - math.inf), True),                     # numpy: √−∞ is NaN
    (lambda x: math.sqrt(x + math.inf) - math.inf, True),        # √∞ = ∞, ∞ − ∞
    (lambda x: max(x, -math.inf) + math.inf, False),             # max(x, −∞) = x
    (lambda x: x / math.inf, False),                             # finite / ∞ = 0
])
def test_nan_where_ieee_gives_nan(fn, where_nan):
    ctx, term = _run(fn, a)
    facts = ctx.side + ctx.infinity_facts()
    claim = ctx.nan.condition(term) == where_nan
    assert _valid(z3.Implies(z3.And(*facts), claim))


def test_isinf_and_isfinite_fork_on_the_regions():
    ctx, term = _run(lambda x: 1.0 if math.isinf(x * math.inf) else 0.0, a)
    assert ctx.max_paths == 2
    assert _valid(term == z3.If(a != 0, 1, 0))
    ctx, term = _run(lambda x: 1.0 if math.isfinite(x * math.inf) else 0.0, a)
    assert _valid(term == 0)  # ±∞ or NaN at every x
    ctx, term = _run(lambda x: 1.0 if np.isfinite(x + 1.0) else 0.0, a)
    assert _valid(term == 1)


def test_isinf_of_a_max_of_two_minus_infinities():
    # both arguments masked: max(−∞, −∞) is −∞, whichever branch the stand-ins take
    def f(x, y):
        u = x if x > 0 else -math.inf
        v = y if y > 0 else -math.inf
        return 1.0 if math.isinf(max(u, v)) else 0.0
    ctx, term = _run(f, a, b)
    facts = z3.And(*(ctx.side + ctx.infinity_facts()))
    assert _valid(z3.Implies(facts, term == z3.If(z3.And(a <= 0, b <= 0), 1, 0)))


def test_a_self_comparison_of_a_nan_infinity_is_decided_by_its_guard():
    ctx, term = _run(lambda x: 1.0 if (x + math.inf) - math.inf == (x + math.inf) - math.inf
                     else 0.0, a)
    assert term == 0.0 and ctx.max_paths == 1


@pytest.mark.parametrize("fn", [
    lambda x: 1.0 if x - math.inf + 1 == x - math.inf else 0.0,    # decided by its form
    lambda x: 1.0 if math.isinf(np.log(x)) else 0.0,                 # log 0 = −∞ unmodelled
    lambda x: (1.0 + math.exp(x - math.inf)) * math.inf,             # a limit times ∞
])
def test_what_the_stand_ins_cannot_tell_is_refused(fn):
    with pytest.raises(Unsupported):
        ctx, term = _run(fn, a)
        from verify.engine import infinity
        infinity.check_terms(ctx, [term])


def test_two_sides_with_the_same_infinity_agree():
    # the stand-ins differ (U + a against U + 2a) but both sides are +∞
    proof = prove(_law(lambda x, y: x * x + 1.0 + math.inf, lambda x, y: 2 * x * x + math.inf))
    assert proof.status == "proved", proof.reason


def test_nan_on_one_side_only_is_a_replayed_counterexample():
    def lhs(x, y):
        return (x + math.inf) - math.inf if x > y else x + y
    r = check_law(_law(lhs, lambda x, y: x + y), floats=False)
    assert r["verdict"] == "refuted"
    point = r["counterexample"]["bindings"]
    assert point["a"] > point["b"]
    assert math.isnan(lhs(float(point["a"]), float(point["b"])))


def test_the_nan_regions_of_infinite_products_cancel_symmetrically():
    # x·∞ − y·∞ is NaN where x = 0, y = 0 or x, y share a sign: the same on both sides
    def f(x, y):
        return x * math.inf - y * math.inf
    proof = prove(_law(lambda x, y: -f(x, y), lambda x, y: f(y, x)))
    assert proof.status == "proved", proof.reason


@pytest.mark.parametrize("name", ["mpmath", "exact", "torch", "numpy"])
def test_isinf_and_isfinite_read_as_python_in_every_interpretation(name):
    from verify.engine.arraywords import make_numpy, make_torch
    from verify.engine.mpwords import make_exact, make_mpmath
    interp = {"mpmath": make_mpmath, "exact": make_exact, "torch": make_torch,
              "numpy": make_numpy}[name]()

    def f(x):
        return (math.isinf(x), math.isfinite(x))
    g = interp.rebind(f)
    for x in (math.inf, -math.inf, math.nan, 1.5, 0.0):
        assert tuple(bool(v) for v in g(x)) == f(x), (name, x)
