"""A model on the boundary of a test is moved off it before it is given up."""
from fractions import Fraction

from laws.core import Law, Property, Var
from verify.decide import nudge, oracle


def _law(rhs):
    return Law(id="t.nudge", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=(Var("a"),),
               lhs=lambda a: 1 if 3 * a < 1 else 0, rhs=rhs)


def test_a_point_on_the_boundary_is_moved_to_one_that_separates_the_sides():
    law = _law(lambda a: 0)
    at = [Fraction(1, 3)]                   # 3a = 1: both sides 0 there
    assert not oracle.confirms(law, at)
    moved = nudge.nearby(law, at)
    assert moved is not None and moved[0] < Fraction(1, 3) and oracle.confirms(law, moved)


def test_the_near_miss_a_true_law_has_no_point_nearby():
    law = _law(lambda a: 1 if 3 * a < 1 else 0)
    assert nudge.nearby(law, [Fraction(1, 3)]) is None


def test_a_second_judge_must_accept_the_point_too():
    law = _law(lambda a: 0)
    at = [Fraction(1, 3)]
    assert nudge.nearby(law, at, also=lambda p: False) is None
    seen = []
    moved = nudge.nearby(law, at, also=lambda p: seen.append(p) or p[0] < Fraction(1, 3))
    assert moved is not None and seen[-1] == moved
