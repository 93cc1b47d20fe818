"""The associativity catalog: verdicts, anti-laws, float verdicts."""
import numpy as np
import pytest

import laws
from laws.core import FAILS
from replay import replays
from verify.decide.check import check_law
from verify.decide.floats import float_verdict

ASSOCIATIVITY_IDS = [law.id for law in laws.REGISTRY if law.property.value == "associativity"]

PROVED_UNBOUNDED = [f"{fam}.{law}" for fam in
                    ("sum", "max", "count", "mean", "welford", "online_softmax", "flash_state",
                     "linear_recurrence", "argmax", "pooled_variance")
                    for law in ("associative", "identity")]
ANTI = ["median.of_medians", "mode.of_modes", "mean.of_means", "online_softmax.no_rescale",
        "welford.variance_add", "topk_merge.truncated", "subtraction.associative"]
BOUNDED = ["topk_merge.merge", "affine_recurrence.associative",
           "power_by_squaring.equals_repeated", "blelloch_scan.equals_sequential",
           "chunked_fold.equals_fold"]


@pytest.mark.parametrize("law_id", PROVED_UNBOUNDED)
def test_proved_unbounded(law_id):
    r = check_law(laws.REGISTRY[law_id], floats=False)
    assert r["verdict"] == "proved", r


@pytest.mark.parametrize("law_id", BOUNDED)
def test_proved_bounded(law_id):
    r = check_law(laws.REGISTRY[law_id], floats=False)
    assert r["verdict"] == "proved-bounded" and r["bound"], r


def test_chunked_fold_reaches_64():
    law = laws.REGISTRY["chunked_fold.equals_fold"]
    assert max(inst["n"] for inst in law.instances) >= 64


@pytest.mark.parametrize("law_id", ANTI)
def test_anti_laws_are_refuted_with_a_replayed_counterexample(law_id):
    law = laws.REGISTRY[law_id]
    assert law.expect == FAILS
    r = check_law(law, floats=False)
    assert r["verdict"] == "refuted" and r["ok"], r
    assert replays(law, r["counterexample"])


UNBOUNDED_HOMOMORPHISMS = ["sum", "count", "mean", "max", "welford", "pooled_variance",
                            "online_softmax", "flash_state", "linear_recurrence"]


@pytest.mark.parametrize("family", UNBOUNDED_HOMOMORPHISMS)
def test_homomorphism_proved_for_every_n_by_induction(family):
    law = laws.REGISTRY[f"{family}.homomorphism"]
    assert law.induction
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved" and "induction on n" in r["method"], r


def test_other_homomorphisms_are_proved_bounded():
    for law in laws.REGISTRY:
        if law.id.endswith(".homomorphism") and not law.induction:
            r = check_law(law, floats=False)
            assert r["verdict"] == "proved-bounded", r


def test_a_wrong_abstraction_leaves_the_homomorphism_bounded():
    import dataclasses
    from laws.associativity import moments
    forgetful = dataclasses.replace(moments.WELFORD.induction,
                                    alpha=lambda s: (s[0], s[1] / s[0], s[2]))
    monoid = dataclasses.replace(moments.WELFORD, induction=forgetful)
    law = next(x for x in monoid.laws() if x.id.endswith(".homomorphism"))
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved-bounded" and "no unbounded proof" in r["reason"]


def test_sum_is_not_exact_in_float32_and_the_counterexample_replays():
    law = laws.REGISTRY["sum.associative"]
    v = float_verdict(law, "float32")
    assert v["exact"] is False
    a, b, c = (np.float32(x) for x in v["counterexample"]["bindings"].values())
    assert (a + b) + c != a + (b + c)


def test_max_is_exact_in_every_format():
    law = laws.REGISTRY["max.associative"]
    for fmt in ("float16", "bfloat16", "float32", "float64"):
        v = float_verdict(law, fmt)
        assert v["exact"] is True and v["cases"] > 1000


def test_pooled_variance_loses_accuracy_where_welford_does_not():
    # The cancellation rows have |mean| / spread = κ ≤ 10⁴. Welford's variance error
    # grows like κ·u, the sum-of-squares formula's like κ²·u.
    pooled = float_verdict(laws.REGISTRY["pooled_variance.homomorphism"], "float32",
                           {"n": 4})
    welford = float_verdict(laws.REGISTRY["welford.homomorphism"], "float32", {"n": 4})
    kappa = 1e4
    assert welford["max_relative_error_in_u"]["lhs"] < 10 * kappa
    assert pooled["max_relative_error_in_u"]["lhs"] > 1000 * welford["max_relative_error_in_u"]["lhs"]


def test_registry_rejects_a_malformed_law():
    from laws.core import Law, Property, Registry, Var, SEARCH
    reg = Registry()
    reg.add(Law(id="Bad", property=Property.SYMMETRY, statement="x", licenses="y",
                vars=(Var("a"),), lhs=lambda a: a, rhs=lambda a: a, method=SEARCH))
    with pytest.raises(ValueError, match="family.law.*\n.*must say why"):
        reg.check()
