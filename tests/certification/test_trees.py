"""The merge-tree stage: right combines pass under every tree, and combines that are
wrong only on merges the interpreter never performs (two empty states, an empty state
on the left) fail with a one-line reason."""
import dataclasses

import pytest
import torch
import triton.language as tl

from laws import REGISTRY
from verify.certification.trees import check_family, law_sets_of, merge_trees, trees_for


def _with_combine(family, combine):
    return dataclasses.replace(REGISTRY.law_set(family), combine=combine)


def _welford_unguarded(a, b):
    n = a[0] + b[0]
    delta = b[1] - a[1]
    return n, a[1] + delta * (b[0] / n), a[2] + b[2] + delta * delta * (a[0] * b[0] / n)


def _softmax_unshifted(a, b):
    m = tl.maximum(a[0], b[0])
    return m, a[1] * tl.exp(a[0] - m) + b[1] * tl.exp(b[0] - m)


def _softmax_right_unscaled(a, b):
    m = tl.maximum(a[0], b[0])
    shift = tl.where(m == -float("inf"), 0.0, m)
    return m, a[1] * tl.exp(a[0] - shift) + b[1]


def _flash_beta_from_a(a, b):
    m = tl.maximum(a[0], b[0])
    shift = tl.where(m == -float("inf"), 0.0, m)
    alpha = tl.exp(a[0] - shift)
    return m, a[1] * alpha + b[1] * alpha, a[2] * alpha + b[2] * alpha


def _sum_scaled(a, b):
    return (a + b) * (1.0 + 2.0 ** -16)


@pytest.mark.parametrize("family", ["sum", "max", "online_softmax", "welford", "flash_state",
                                    "linear_recurrence", "mean"])
def test_catalog_combines_pass_under_every_tree(family):
    record = check_family(REGISTRY.law_set(family))
    assert record["pass"], record["failures"]
    assert record["checked"] > 500
    if family in ("sum", "max", "online_softmax", "welford", "flash_state", "mean"):
        assert record["unchecked"] == 0  # every point has a finite radius
    assert 0 < record["worst_rho"] <= 1 or family == "max"


@pytest.mark.parametrize("family,combine,needle", [
    ("welford", _welford_unguarded, "empty lanes"),
    ("online_softmax", _softmax_unshifted, "empty lanes"),
    ("online_softmax", _softmax_right_unscaled, "exact"),
    ("flash_state", _flash_beta_from_a, "exact"),
    ("sum", _sum_scaled, "exact"),
])
def test_wrong_combines_fail_with_one_line_reasons(family, combine, needle):
    record = check_family(_with_combine(family, combine))
    assert not record["pass"]
    assert record["failures"] and all("\n" not in f for f in record["failures"])
    assert any(needle in f for f in record["failures"]), record["failures"]


def test_the_unguarded_welford_merge_is_right_on_every_in_order_left_fold():
    """Why this stage exists: the fold the interpreter performs never merges two empty
    states, so only the trees see the 0/0."""
    record = check_family(_with_combine("welford", _welford_unguarded), lengths=(5, 17))
    with_data = [f for f in record["failures"] if "data in" in f]
    assert all("'from-identity'" not in f and "'sequential'" not in f for f in with_data)
    assert any("'balanced'" in f or "'blocked'" in f for f in with_data), record["failures"]


def test_reordering_trees_only_for_commutative_combines():
    assert "swapped" not in trees_for(False) and "swapped" in trees_for(True)
    assert "strided" not in check_family(REGISTRY.law_set("linear_recurrence"))["trees"]


def test_law_sets_of_a_kernel_and_the_certificate_entry():
    sets = law_sets_of(["online_softmax.associative", "online_softmax.identity",
                        "max.identity", "int8_quantization.rounding"])
    assert [s.family for s in sets] == ["online_softmax", "max"]
    entry = merge_trees(["int8_quantization.rounding"], ["float32"])
    assert entry["pass"] and entry["families"] == {} and "note" in entry


def test_half_precision_accumulation_is_checked_in_its_own_format():
    record = check_family(REGISTRY.law_set("sum"), torch.float16)
    assert record["format"] == "float16" and record["pass"], record["failures"]
