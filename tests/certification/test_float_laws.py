"""Float laws against their derived bounds: a law true over ℝ holds in a float format
within the two sides' radii (ρ ≤ 1) though not bit-exactly; a false "law" exceeds it
with a replayed counterexample; a side the radius interpretation cannot run is unknown."""
import pytest
import torch
import triton.language as tl

from laws.core import Law, Property, Var
from verify.certification.float_laws import assert_float_law, check_float_law
from verify.results import Verdict

EXAMPLES = 120


def _law(lhs, rhs, law_id="user.claim", nvars=3):
    return Law(id=law_id, property=Property.ASSOCIATIVITY, statement="a user's claim",
               licenses="nothing", vars=tuple(Var(n) for n in "abc"[:nvars]), lhs=lhs, rhs=rhs)


WRONG = _law(lambda a, b, c: a + b + c, lambda a, b, c: a + b + c * (1 + 2 ** -8),
             "user.scaled_third")


@pytest.mark.parametrize("fmt", ["float32", "float16"])
def test_sum_associative_holds_within_its_bound_but_not_exactly(fmt):
    result = check_float_law("sum.associative", fmt, max_examples=EXAMPLES)
    assert result.verdict is Verdict.TESTED and result["ok"], result.summary()
    assert 0 < result.worst_rho <= 1
    assert result["inexact_examples"] > 0          # float addition is not associative
    assert "holds within its derived bound, worst ρ seen" in result.summary()
    worst = result["worst"]
    gap = abs(worst["lhs"][0] - worst["rhs"][0])
    assert gap <= worst["radius_lhs"][0] + worst["radius_rhs"][0]


def test_a_wrong_law_exceeds_its_bound_and_the_counterexample_replays():
    result = check_float_law(WRONG, "float32", max_examples=EXAMPLES)
    assert result.verdict is Verdict.REFUTED and result.worst_rho > 1
    cex = result["counterexample"]
    assert set(cex["bindings"]) == {"a", "b", "c"} and cex["rho"] > 1
    a, b, c = (torch.tensor([cex["bindings"][k]], dtype=torch.float32) for k in "abc")
    assert float(WRONG.lhs(a, b, c)) == cex["lhs"][0]
    assert float(WRONG.rhs(a, b, c)) == cex["rhs"][0]
    assert abs(cex["lhs"][0] - cex["rhs"][0]) > cex["radius_lhs"][0] + cex["radius_rhs"][0]
    with pytest.raises(AssertionError, match="exceeds its derived bound"):
        assert_float_law(WRONG, "float32", max_examples=EXAMPLES)


def test_online_softmax_associative_within_bound_or_honestly_unknown():
    result = check_float_law("online_softmax.associative", "float32", max_examples=EXAMPLES)
    if result.verdict is Verdict.UNKNOWN:
        assert result["reason"]
    else:
        assert result.verdict is Verdict.TESTED and result.worst_rho <= 1, result.summary()
        assert result["examples"] > 0


def test_an_operation_without_a_derived_bound_is_unknown_never_a_pass():
    law = _law(lambda a, b: tl.sin(a + b), lambda a, b: tl.sin(b + a), "user.sine", 2)
    result = check_float_law(law, "float32", max_examples=20)
    assert result.verdict is Verdict.UNKNOWN and "tl.sin" in result["reason"]
    with pytest.raises(AssertionError, match="unknown"):
        assert_float_law(law, "float32", max_examples=20)


def test_a_branch_on_a_value_is_unknown():
    def branchy(a, b):
        return a if a > b else b
    law = _law(branchy, lambda a, b: tl.maximum(a, b), "user.branch", 2)
    result = check_float_law(law, "float32", max_examples=20)
    assert result.verdict is Verdict.UNKNOWN and "truth value" in result["reason"]


def test_an_approximation_law_is_not_judged_against_a_float_bound():
    from laws import REGISTRY
    bounded = next(law for law in REGISTRY if law.exactness == "bounded")
    result = check_float_law(bounded, "float32", max_examples=5)
    assert result.verdict is Verdict.UNKNOWN and "approximation" in result["reason"]


def test_assert_float_law_passes_a_true_law_in_float16():
    result = assert_float_law("sum.associative", "float16", max_examples=60)
    assert result.worst_rho <= 1
