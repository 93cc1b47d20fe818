"""Certification against the acceptance rules kernel projects use
(tests/user_kernels/compare_peers.py) on the cross-entropy, SwiGLU and chunked cumsum
examples: no false alarm on a correct kernel, every bug a peer rule catches caught, each
correct kernel certified and each planted bug failing; and the rules themselves at
their edges."""
import math

import pytest
import torch

from user_kernels import compare_peers as peers

NEW_KERNELS = ("cross_entropy", "swiglu", "chunked_cumsum")


@pytest.fixture(scope="module")
def rows():
    return peers.compare(NEW_KERNELS, peers.DTYPES)


def test_certification_has_no_false_alarm_and_misses_nothing_a_peer_catches(rows):
    assert peers.violations(rows) == []


def test_each_correct_kernel_certifies_and_each_planted_bug_fails(rows):
    for row in rows:
        label = f"{row['kernel']} / {row['variant']} / {row['dtype']}"
        if not row["bug"]:
            assert not row["fails"][peers.CERTIFICATE], (label, row["certificate_failures"])
        elif row["live"]:
            assert row["fails"][peers.CERTIFICATE], label
    for kernel in NEW_KERNELS:      # every planted bug is a bug in some dtype
        bugs = {r["variant"] for r in rows if r["kernel"] == kernel and r["bug"]}
        live = {r["variant"] for r in rows if r["kernel"] == kernel and r["bug"] and r["live"]}
        assert bugs and bugs == live, (kernel, bugs - live)


def test_the_missing_rescale_is_caught_in_both_dtypes(rows):
    row = [r for r in rows if r["kernel"] == "cross_entropy" and "rescale" in r["variant"]]
    assert len(row) == 2 and all(r["fails"][peers.CERTIFICATE] for r in row)


def test_a_bug_without_effect_in_a_dtype_is_no_bug_there(rows):
    gate = {r["dtype"]: r for r in rows
            if r["kernel"] == "swiglu" and r["variant"] == "sigmoid in the input format"}
    assert gate["float32"]["live"] is False and gate["float16"]["live"] is True
    assert "| swiglu | sigmoid in the input format | — / " in peers.table(rows)


def test_the_table_totals_count_correct_kernels_and_live_bugs(rows):
    text = peers.table(rows)
    live = sum(r["bug"] and r["live"] for r in rows)
    assert "| **false alarms** | correct kernel × dtype | " in text
    assert f"/{len(NEW_KERNELS) * 2} |" in text and f"/{live} |" in text


def test_every_case_certification_ran_is_judged_by_the_peers():
    from user_kernels import swiglu
    seen = peers.observe(swiglu.KERNEL, "float32")
    assert seen.passed and len(seen.cases) > 10
    assert [c.name for c, _ in seen.runs] == seen.cases
    assert all(out is not None and set(out) == {"y"} for _, out in seen.runs)


# --------------------------------------------------------------------------- the rules
def _t(*values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype)


def test_flash_attention_rule_allows_twice_the_same_precision_error_and_no_more():
    oracle, same = _t(1.0, 2.0), _t(1.0, 2.0 + 1e-3)
    assert peers.flash_attention(_t(1.0, 2.0 + 2e-3), oracle, same=same)
    assert not peers.flash_attention(_t(1.0, 2.0 + 2.1e-3), oracle, same=same)
    assert not peers.flash_attention(_t(1.0, 2.0), oracle, same=None)


def test_relative_rms_is_scaled_by_the_largest_magnitude_and_the_output_epsilon():
    eps = torch.finfo(torch.float32).eps
    oracle = _t(4.0, 0.0, 0.0, 0.0)
    limit = 80 * eps * 4.0 * 2.0          # √N·max with N = 4: an error on one element
    inside = _t(4.0, limit * 0.99, 0.0, 0.0, dtype=torch.float64).float()
    outside = _t(4.0, limit * 1.01, 0.0, 0.0, dtype=torch.float64).float()
    assert peers.relative_rms(inside, oracle)
    assert not peers.relative_rms(outside, oracle)
    assert peers.relative_rms(outside.half(), oracle)      # fp16's epsilon is 2^13 larger


def test_u_n_max_scales_with_the_accumulation_count():
    u = 2.0 ** -24
    oracle = _t(1.0, 8.0)
    kernel = _t(1.0 + 10 * u * 8.0, 8.0).float()
    assert not peers.u_n_max(kernel, oracle, dtype="float32", count=1)
    assert peers.u_n_max(kernel, oracle, dtype="float32", count=16)
    assert peers.u_n_max(kernel, oracle, dtype="float16", count=1)   # u of fp16


def test_fixed_tolerances_are_per_input_dtype():
    oracle = _t(1.0)
    assert not peers.fixed(_t(1.0 + 3e-4), oracle, dtype="float32")
    assert peers.fixed(_t(1.0 + 3e-4), oracle, dtype="float16")
    assert not peers.fixed(_t(1.03), oracle, dtype="float16")


def test_assert_close_compares_with_the_oracle_in_the_output_dtype():
    oracle = _t(70000.0)                     # beyond fp16: the cast oracle is +inf
    assert peers.assert_close(_t(math.inf).half(), oracle)
    assert not peers.assert_close(_t(1.0 + 1e-5).float(), _t(1.0 + 3e-5))


def test_infinities_and_nans_count_as_exact_only_where_the_oracle_has_them():
    inf, nan = math.inf, math.nan
    assert peers.fixed(_t(inf, nan), _t(inf, nan), dtype="float32")
    assert not peers.fixed(_t(inf), _t(60000.0), dtype="float16")
    assert not peers.relative_rms(_t(nan).float(), _t(1.0))
    assert not peers.u_n_max(_t(nan), _t(1.0), dtype="float32")


def test_unchanged_tells_a_bit_for_bit_equal_variant_from_a_different_one():
    case = object()
    a = peers.Observed(True, [], [], [(case, {"y": _t(1.0, math.nan)})])
    b = peers.Observed(True, [], [], [(case, {"y": _t(1.0, math.nan)})])
    c = peers.Observed(True, [], [], [(case, {"y": _t(1.0 + 2.0 ** -52, math.nan)})])
    crashed = peers.Observed(False, [], [], [(case, None)])
    assert peers.unchanged(a, b)
    assert not peers.unchanged(c, a) and not peers.unchanged(crashed, a)


def test_the_new_bindings_are_ten_lines_or_fewer():
    import importlib
    import inspect
    for name in NEW_KERNELS:
        source = inspect.getsource(importlib.import_module(f"user_kernels.{name}").binding)
        assert len(source.strip().splitlines()) <= 10, name
