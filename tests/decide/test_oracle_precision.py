"""The oracle's precision grows until two successive levels agree: a cancellation that
loses a term at the first two precisions is no counterexample."""
import math

import mpmath

from laws.core import Law, Property, Var
from verify.decide import oracle
from verify.decide.check import check_law


def f(a, b):
    return math.exp(a * a) + b - math.exp(a * a)


def _assoc() -> Law:
    return Law(id="t.cancel", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=(Var("a"), Var("b"), Var("c")),
               lhs=lambda a, b, c: f(f(a, b), c), rhs=lambda a, b, c: f(a, f(b, c)))


def test_cancellation_below_the_first_precisions_is_not_a_difference():
    # exp(144) ≈ 2^207.7: at 113 + 64 bits the 1 is lost on one side only
    law = _assoc()
    g = oracle.gap(law, [12, 0, 1])
    assert not g.differs
    assert mpmath.almosteq(g.lhs, 1) and mpmath.almosteq(g.rhs, 1)


def test_a_real_difference_stays_one():
    # near miss: f(a, b) = b is not commutative, and the precision growth keeps it so
    law = Law(id="t.cancel_comm", property=Property.SYMMETRY, statement="test",
              licenses="test", vars=(Var("a"), Var("b")),
              lhs=lambda a, b: f(a, b), rhs=lambda a, b: f(b, a))
    assert oracle.gap(law, [12, 1]).differs
    assert oracle.confirms(law, [12, 1])


def test_beyond_the_cap_the_point_is_undecided(monkeypatch):
    monkeypatch.setattr(oracle, "MAX_PREC", 200)
    g = oracle.gap(_assoc(), [12, 0, 1])
    assert not g.differs and g.undecided


def test_associativity_of_the_cancelling_function_is_not_refuted():
    r = check_law(_assoc(), floats=False)
    assert r["verdict"] != "refuted", r


def g(a, b):
    return a * (math.cosh(b) ** 2 - math.sinh(b) ** 2)


def test_agreeing_levels_below_the_deep_level_confirm_nothing():
    # cosh(129)² ≈ 2^372: the sides agree with themselves at 120, 184 and 368 bits (the
    # 1 is lost at all three); the level of DEEP_PREC bits sees f(129, 129) = 129
    law = Law(id="t.cosh_idem", property=Property.REDUNDANCY, statement="test",
              licenses="test", vars=(Var("a"),), lhs=lambda a: g(a, a), rhs=lambda a: a)
    got = oracle.gap(law, [129])
    assert not got.differs
    near = Law(id="t.cosh_double", property=Property.REDUNDANCY, statement="test",
               licenses="test", vars=(Var("a"),), lhs=lambda a: 2 * g(a, a), rhs=lambda a: a)
    assert oracle.gap(near, [129]).differs
