"""Laws whose sides may be NaN: NaN against a number is a replayed counterexample, two
NaN sides agree, and a test on a NaN-able value is decided by its NaN condition."""
import math

import numpy as np

from laws.core import Law, Property, Var
from verify.decide import pyrun
from verify.decide.check import check_law
from verify.decide.prover import prove


def _law(lhs, rhs, n=2):
    return Law(id="t.nan", property=Property.SYMMETRY, statement="test", licenses="test",
               vars=tuple(Var(v) for v in "ab"[:n]), lhs=lhs, rhs=rhs)


def _root_max(x, y):
    return max(np.sqrt(x), np.sqrt(y))


def _root_maximum(x, y):
    return np.maximum(np.sqrt(x), np.sqrt(y))


def test_python_max_is_not_commutative_once_a_side_is_nan():
    law = _law(_root_max, lambda a, b: _root_max(b, a))
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted"
    point = list(r["counterexample"]["bindings"].values())
    assert min(point) < 0 <= max(point)              # one root NaN, the other a number
    assert pyrun.confirms(law, point, {})[0]          # replayed on Python floats


def test_numpy_maximum_propagates_so_it_stays_commutative():
    law = _law(_root_maximum, lambda a, b: _root_maximum(b, a))
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved" and r["assumptions"] == []
    assert "NaN conditions" in r["method"]


def test_two_nan_sides_agree_without_an_assumption():
    # before NaN was modelled this needed "sqrt argument nonnegative: a ≥ 0"
    law = _law(lambda a, b: np.sqrt(a) + b, lambda a, b: b + np.sqrt(a))
    proof = prove(law)
    assert proof.status == "proved" and proof.assumptions == []


def test_nan_times_zero_is_not_zero():
    # over ℝ the root's value would not matter; IEEE NaN · 0 is NaN
    law = _law(lambda a, b: np.sqrt(a) * 0.0 + b, lambda a, b: b)
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted"
    assert r["counterexample"]["bindings"]["a"] < 0


def _guarded(x, y):
    r = np.sqrt(x - y)
    return r if r == r else np.sqrt(y - x)


def _unguarded(x, y):
    r = np.sqrt(x - y)
    return r if r == r else 0.0


def test_a_self_test_guard_is_proved_where_it_makes_the_law_true():
    assert prove(_law(_guarded, lambda a, b: _guarded(b, a))).status == "proved"


def test_the_same_guard_is_refuted_where_the_law_fails():
    law = _law(_unguarded, lambda a, b: _unguarded(b, a))
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted"
    assert pyrun.confirms(law, list(r["counterexample"]["bindings"].values()), {})[0]


def _nan_below(x, y):
    if x + y < 0:
        return float("nan")
    return x + y


def test_a_nan_literal_on_a_branch():
    assert prove(_law(_nan_below, lambda a, b: _nan_below(b, a))).status == "proved"
    three = Law(id="t.nan3", property=Property.ASSOCIATIVITY, statement="t", licenses="t",
                vars=tuple(Var(v) for v in "abc"),
                lhs=lambda a, b, c: _nan_below(_nan_below(a, b), c),
                rhs=lambda a, b, c: _nan_below(a, _nan_below(b, c)))
    r = check_law(three, floats=False)
    assert r["verdict"] == "refuted"                  # NaN on one side only


def test_comparing_with_a_nan_literal_is_always_false():
    # a classic bug: x == math.nan never holds, so this is the right projection
    law = _law(lambda a, b: a if a == math.nan else b, lambda a, b: b)
    assert prove(law).status == "proved"


def _fmax_law():
    # fmax(√a, 0) is never NaN, so its product with 0 is 0 everywhere
    return Law(id="t.fmax", property=Property.ASSOCIATIVITY, statement="t", licenses="t",
               vars=(Var("a"),), lhs=lambda a: np.fmax(np.sqrt(a), 0.0) * 0.0,
               rhs=lambda a: 0.0)


def test_fmax_of_a_nan_root_and_zero_is_never_nan():
    assert prove(_fmax_law()).status == "proved"


def test_a_nan_refutation_plain_python_does_not_confirm_is_unknown(monkeypatch):
    # np.fmax ignores a NaN argument; misread as propagating NaN by z3 and by the
    # oracle alike, the left side is NaN for a < 0, and only the plain-Python replay
    # (the real numpy) can stop the refutation
    from verify.decide import oracle
    from verify.decide.decide import decide
    from verify.decide.policy import AUDIT
    from verify.engine.mpwords import _mp_maximum
    from verify.engine.nan import NanModel
    monkeypatch.setattr(NanModel, "fmax", NanModel.maximum)
    monkeypatch.setattr(oracle.MP.np, "fmax", _mp_maximum)
    law = _fmax_law()
    assert prove(law).status == "refuted"               # the shared misreading
    res = decide(law, AUDIT)
    assert res["verdict"] == "unknown" and "does not replay" in res["reason"]
    assert res["counterexample"] is None
