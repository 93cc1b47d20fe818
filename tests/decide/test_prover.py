"""Verdict kinds, the replay rule, timeouts and stated preconditions."""
import pytest
import triton.language as tl

import laws
from laws.core import FAILS, SEARCH, Law, Property, Var
from verify.decide import oracle
from verify.decide.check import check_law
from verify.decide.prover import prove


def _law(lhs, rhs, n=3, **kw):
    return Law(id="t.case", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=tuple(Var(v) for v in "abc"[:n]), lhs=lhs, rhs=rhs, **kw)


def test_proved():
    r = check_law(laws.REGISTRY["online_softmax.associative"], floats=False)
    assert r["verdict"] == "proved" and r["ok"]
    assert "exp encoding" in r["method"]


def test_proved_bounded_states_its_bound():
    r = check_law(laws.REGISTRY["topk_merge.merge"], floats=False)
    assert r["verdict"] == "proved-bounded" and "k ≤ 4" in r["bound"]


def test_refuted_counterexample_replays_in_high_precision():
    law = laws.REGISTRY["online_softmax.no_rescale"]
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted" and r["ok"]
    values = [tuple(v) for v in r["counterexample"]["bindings"].values()]
    assert oracle.confirms(law, values)


def test_spurious_model_of_the_exp_encoding_is_unknown_not_refuted():
    # exp(x) ≥ 1 + x holds over ℝ, but the encoding only knows exp is positive and
    # monotone, so z3 finds a model; the replay must reject it.
    law = _law(lambda x: tl.maximum(tl.exp(x), 1 + x), lambda x: tl.exp(x), n=1)
    proof = prove(law)
    assert proof.status == "unknown"
    assert "does not confirm" in proof.reason
    r = check_law(law, floats=False)
    assert r["verdict"] == "tested" and r["cases"] > 0


def test_timeout_is_unknown():
    proof = prove(laws.REGISTRY["welford.associative"], timeout_ms=1)
    assert proof.status == "unknown" and "timed out" in proof.reason


def test_denominators_are_stated_preconditions():
    law = _law(lambda a, b: (a * b) / b, lambda a, b: a, n=2)
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved"
    assert r["assumptions"] == ["b ≠ 0"]


def test_implied_denominator_is_not_listed():
    law = Law(id="t.pos", property=Property.ASSOCIATIVITY, statement="t", licenses="t",
              vars=(Var("a"), Var("b", (), "positive")),
              lhs=lambda a, b: (a * b) / b, rhs=lambda a, b: a)
    assert check_law(law, floats=False)["assumptions"] == []


def test_refuted_law_expected_to_hold_disagrees():
    r = check_law(_law(lambda a, b, c: (a - b) - c, lambda a, b, c: a - (b - c)), floats=False)
    assert r["verdict"] == "refuted" and not r["ok"]


def test_anti_law_that_holds_disagrees():
    law = _law(lambda a, b, c: (a + b) + c, lambda a, b, c: a + (b + c), expect=FAILS)
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved" and not r["ok"]


def test_searcher_gives_tested_with_case_count():
    law = _law(lambda a, b: sorted([a, b])[0], lambda a, b: min(a, b), n=2, method=SEARCH,
               reason="sorted is outside the vocabulary")
    r = check_law(law, floats=False)
    assert r["verdict"] == "tested" and r["cases"] >= 50


def test_searcher_refutes_and_shrinks():
    law = _law(lambda a, b: sorted([a, b])[0], lambda a, b: max(a, b), n=2, method=SEARCH,
               reason="sorted is outside the vocabulary")
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted"
    a, b = r["counterexample"]["bindings"].values()
    assert a != b and abs(a) <= 2 and abs(b) <= 2


def test_a_double_precision_artifact_is_never_a_counterexample():
    # Both sides equal over ℝ; the left one is computed through a Python float.
    law = _law(lambda a: float(a) * 3.0 / 3.0 + a * 0.1, lambda a: a + a * 0.1, n=1,
               method=SEARCH, reason="float() is outside the vocabulary")
    assert check_law(law, floats=False)["verdict"] == "tested"


def test_malformed_law_is_error():
    law = _law(lambda a, b: (a, b), lambda a, b: a, n=2)
    assert check_law(law, floats=False)["verdict"] == "error"


def test_hashing_symbolic_values_is_never_proved():
    # A dict keyed by z3 terms compares structural hashes and never asks whether two
    # symbols are equal: statistics.mode([a, b, c, c]) = c would "prove".
    import statistics
    law = _law(lambda a, b, c: statistics.mode([a, b, c, c]), lambda a, b, c: c)
    proof = prove(law)
    assert proof.status == "unknown" and "hashes a symbolic value" in proof.reason
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted"  # a, a, b, b: the mode is a, not c


def test_infinity_returned_from_a_branch():
    def clamp_low(a):
        return float("-inf") if a > 0 else a
    law = _law(lambda a: tl.maximum(clamp_low(a), a), lambda a: a, n=1)
    assert prove(law).status == "proved"


def test_inputs_spanning_many_binades_are_not_a_false_counterexample():
    # log(exp(a)) = a; at a = 4.6e-150, 1 + a rounds to 1 at 113 and at 177 bits alike.
    law = _law(lambda a: tl.log(tl.exp(a)), lambda a: a, n=1)
    assert not oracle.confirms(law, [4.5635856128105796e-150])


def test_a_function_that_fails_on_symbols_is_unknown_then_searched():
    import statistics
    law = _law(lambda a, b: statistics.fmean([a, b]), lambda a, b: (a + b) / 2, n=2)
    assert prove(law).status == "unknown"
    assert check_law(law, floats=False)["verdict"] == "tested"


def test_a_complex_replay_never_confirms():
    law = _law(lambda a, b: tl.log(a) + b, lambda a, b: b + tl.log(a), n=2)
    assert not oracle.confirms(law, [-1, 2])


def test_contradictory_preconditions_never_prove():
    # a/(a − a) = 0 "holds" once a − a ≠ 0 is assumed, because nothing satisfies it.
    law = _law(lambda a: a / (a - a), lambda a: 0, n=1)
    proof = prove(law)
    assert proof.status == "unknown" and "no common point" in proof.reason
    assert check_law(law, floats=False)["verdict"] != "proved"


def test_contradictory_law_precondition_never_proves():
    law = _law(lambda a: a, lambda a: a + 1, n=1, pre=lambda a: [a > 1, a < 0])
    assert prove(law).status == "unknown"


def test_a_nan_side_against_a_number_is_a_counterexample():
    # 0^1 · 0^(−1/4) = 0·∞ is NaN while the other side is 0: the law fails there.
    law = _law(lambda a, b, c: a ** b * a ** c, lambda a, b, c: a ** (b + c))
    assert oracle.confirms(law, [0, 1, -0.25])


def test_two_nan_sides_agree():
    law = _law(lambda a, b, c: (a - a) * float("inf"), lambda a, b, c: 0 * float("inf"))
    assert not oracle.gap(law, [1, 2, 3]).differs


def test_a_raising_point_is_no_counterexample():
    # a / b · b raises at b = 0: the point is outside the function's domain.
    law = _law(lambda a, b, c: a / b * b, lambda a, b, c: a + c - c)
    assert not oracle.confirms(law, [1, 0, 2])


def _tiny_branch(a, b):
    return -b if a == 1e-300 else a + b


def test_a_model_that_needs_a_thousand_bits_is_replayed_exactly():
    # z3's model puts f(a, b) on the a == 1e-300 branch through a + b = 1e-300 with
    # a = −1/2: b = 1/2 + 1e-300 needs about a thousand significand bits. Rounded to
    # the oracle's precision, the replay takes the other branch and sees no gap.
    from fractions import Fraction
    law = _law(lambda a, b, c: _tiny_branch(_tiny_branch(a, b), c),
               lambda a, b, c: _tiny_branch(a, _tiny_branch(b, c)))
    b = Fraction(1, 2) + Fraction(1e-300)
    found = oracle.gap(law, [Fraction(-1, 2), b, Fraction(1)])
    assert found.differs and found.exact
    assert found.lhs == -1 and found.rhs == Fraction(1, 2) + b
    assert oracle.confirms(law, [Fraction(-1, 2), b, Fraction(1)])
    # the same point through exp, which only the precision-based oracle can follow
    law = _law(lambda a, b, c: _tiny_branch(_tiny_branch(a, b), c) + tl.exp(c) - tl.exp(c),
               lambda a, b, c: _tiny_branch(a, _tiny_branch(b, c)))
    found = oracle.gap(law, [Fraction(-1, 2), b, Fraction(1)])
    assert found.differs and not found.exact


def test_an_exact_tie_is_no_counterexample_and_a_tiny_exact_gap_is_one():
    from fractions import Fraction
    tiny = Fraction(1, 2 ** 2000)
    law = _law(lambda a, b: (a + b) - b, lambda a, b: a, n=2)
    assert not oracle.confirms(law, [1, tiny])
    law = _law(lambda a, b: a + b * 0, lambda a, b: a + tiny * b, n=2)
    found = oracle.gap(law, [1, 1])
    assert found.differs and found.exact and found.gap == tiny


def test_an_int_input_is_divided_exactly_in_the_exact_replay():
    # In floats 1 / 49 * 49 is 0.9999999999999999, so with a Python int for a the
    # function would return 0 — an int, which looks exact. Over ℝ the sides agree.
    def lhs(a, b):
        return 1 if a / 49 * 49 == a else 0
    for domain in ("real", "integer"):
        law = Law(id="t.div", property=Property.ASSOCIATIVITY, statement="t",
                  licenses="t", vars=(Var("a", (), domain), Var("b")), lhs=lhs,
                  rhs=lambda a, b: 1)
        found = oracle.gap(law, [1, 0])
        assert found.exact and not found.differs
        assert not oracle.confirms(law, [1, 0])


def _root_squared(a):
    import math
    return math.sqrt(a * a + 1) * math.sqrt(a * a + 1)


@pytest.mark.parametrize("side", [
    lambda a, b: 1 if _root_squared(a) == a * a + 1 else 0,           # math.sqrt: a float
    lambda a, b: 1 if (a * a + 1) ** 0.5 * (a * a + 1) ** 0.5 == a * a + 1 else 0,
    lambda a, b: 1 if float(a) / 3 * 3 == a else 0,                     # float()
    lambda a, b: 1 if tl.sqrt(a * a + 1) * tl.sqrt(a * a + 1) == a * a + 1 else 0,
], ids=["math-sqrt", "pow-half", "float-call", "tl-sqrt"])
def test_a_branch_decided_by_rounding_is_no_counterexample(side):
    # Over ℝ every side is 1. In floats, or at any finite precision, the comparison
    # can come out false and the function returns 0: an int, a "stable" gap of 1.
    law = _law(side, lambda a, b: 1, n=2)
    for a in (1, 2, 3, 5, 7):
        found = oracle.gap(law, [a, 0])
        assert not found.differs, (a, found)
        assert not oracle.confirms(law, [a, 0])


def test_a_branch_with_a_real_margin_still_refutes():
    # exp(a) > 1 + a except at a = 0: the margin at a = 1 is e − 2, far from rounding
    law = _law(lambda a, b: 1 if tl.exp(a) > 1 + a else 0, lambda a, b: 0, n=2)
    found = oracle.gap(law, [1, 0])
    assert found.differs and not found.undecided and not found.exact
    # and a tie that is real (both sides of the comparison are the same number)
    law = _law(lambda a, b: 1 if tl.exp(a) == tl.exp(a) else 0, lambda a, b: 0, n=2)
    assert oracle.confirms(law, [1, 0])
