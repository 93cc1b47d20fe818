"""Floor division (``//``, ``%``, ``divmod``) as Python has it, in every interpretation:
exact on mpf, ToInt in z3, and verdicts that follow."""
from __future__ import annotations

import itertools
import math

import mpmath
import pytest
import z3

from laws.core import Law, Property, Var
from verify.decide import decide as D
from verify.decide.policy import CATALOG
from verify.engine import interp  # noqa: F401  (installs mpf floor division)
from verify.engine.z3interp import Z3Context, evaluate
from verify.results import Verdict

FLOATS = [0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 0.1, -3.0, math.inf, -math.inf, math.nan]


def _same(x, y) -> bool:
    return (math.isnan(y) and mpmath.isnan(x)) or float(x) == y


@pytest.mark.parametrize("a, b", list(itertools.product(FLOATS, FLOATS)))
def test_mpf_floor_division_is_pythons(a, b):
    if b == 0:
        for op in (lambda x, y: x // y, lambda x, y: x % y, divmod):
            with pytest.raises(ZeroDivisionError):
                op(mpmath.mpf(a), mpmath.mpf(b))
        return
    q, r = divmod(a, b)
    mq, mr = divmod(mpmath.mpf(a), mpmath.mpf(b))
    assert _same(mq, q) and _same(mr, r), (a, b, (q, r), (mq, mr))
    assert _same(mpmath.mpf(a) // b, q) and _same(a % mpmath.mpf(b), r)


def test_mpf_floor_is_of_the_exact_quotient_not_a_rounded_one():
    with mpmath.workprec(53):
        a = mpmath.mpf(2) ** 80 - 1          # exact: 80 bits
        assert a // 1 == a and a % 1 == 0    # a 53-bit quotient would round to 2**80
        assert mpmath.mpf(-1) // 3 == -1 and mpmath.mpf(-1) % 3 == 2


def _value(term, **point):
    s = z3.Solver()
    out = z3.Real("out") if not term.is_int() else z3.Int("out")
    s.add(out == term, *[z3.Int(k) == v if isinstance(v, int) else z3.Real(k) == v
                         for k, v in point.items()])
    assert s.check() == z3.sat
    return s.model()[out]


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, -3)])
def test_z3_floor_division_and_remainder_follow_python_on_ints(a, b):
    i = z3.Int("i")
    q, r = evaluate(Z3Context(), lambda: divmod(i, b))
    assert _value(q, i=a).as_long() == a // b and _value(r, i=a).as_long() == a % b


def test_z3_true_division_of_ints_is_not_integer_division():
    i = z3.Int("i")
    t = evaluate(Z3Context(), lambda: i / 2)
    assert _value(t, i=7).as_fraction() == 3.5


def test_z3_floor_division_states_its_divisor_where_python_raises():
    ctx = Z3Context()
    x, y = z3.Real("x"), z3.Real("y")
    evaluate(ctx, lambda: x // y)
    assert [text for _, _, text in ctx.raising] == ["y ≠ 0"]


def _law(lhs, rhs, domain):
    return Law(id="user.floor", property=Property.REDUNDANCY, statement="s", licenses="x",
               vars=(Var("a", domain=domain),), lhs=lhs, rhs=rhs)


def _by_one(a):
    return a // 1


def _itself(a):
    return a


def test_floor_division_by_one_is_the_identity_on_ints_only():
    ints = D.decide(_law(_by_one, _itself, "integer"), CATALOG.with_(floats=False))
    assert ints.verdict is Verdict.PROVED, ints.to_json()
    reals = D.decide(_law(_by_one, _itself, "real"), CATALOG.with_(floats=False))
    assert reals.verdict is Verdict.REFUTED, reals.to_json()
