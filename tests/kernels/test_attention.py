"""Fused attention: certified on this backend, every planted bug caught, fully masked
rows give zeros (never NaN), inputs validated."""
from __future__ import annotations

import math

import pytest
from kernel_checks import assert_bench_reports
import torch

from impls import attention as AT
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results

SPEC = AT.KERNEL


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, backend(), seed=0, check_laws=False)


@pytest.fixture(scope="module")
def planted():
    return planted_results(SPEC, backend(), seed=0)


def test_certificate_passes_every_case(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    for dtype, result in certificate["per_dtype"].items():
        assert all(case["pass"] for case in result["cases"]), dtype
    coverage = set(certificate["cases"]["coverage"])
    assert {"causal", "fully-masked-rows", "head-dim-128", "max-grows-every-block",
            "length-not-multiple-of-block"} <= coverage


def test_certificate_records_the_naive_ratio(certificate):
    ratio = certificate["naive_ratio"]
    assert ratio is not None and math.isfinite(ratio) and ratio > 0


def test_precision_states_the_dot_precision():
    for dtype in SPEC.dtypes:
        assert SPEC.comparison.precision(dtype)["input_precision"] in ("ieee", "tf32")
    if backend() != "gpu":
        assert SPEC.comparison.precision("float32")["input_precision"] == "ieee"


def _failing_cases(cert):
    return {case["name"] for result in cert["per_dtype"].values()
            for case in result["cases"] if not case["pass"]}


def test_rescale_dropped_is_caught(planted):
    cert = planted["rescale_dropped"]
    assert not cert["pass"]
    failing = _failing_cases(cert)
    assert any(name.startswith("growing max") for name in failing)
    assert all("problem" not in case for r in cert["per_dtype"].values() for case in r["cases"])


def test_diagonal_block_skipped_is_caught_on_causal_cases_only(planted):
    cert = planted["diagonal_block_skipped"]
    assert not cert["pass"]
    for result in cert["per_dtype"].values():
        for case in result["cases"]:
            causal = " causal" in case["name"]
            if not causal:
                assert case["pass"], case["name"]
    assert any(" causal" in name for name in _failing_cases(cert))


def _inputs(b, h, m, n, d, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return tuple(AT.half_exact(torch.randn(b, h, s, d, generator=gen, dtype=torch.float64))
                 for s in (m, n, n))


def _check_against_oracle(q, k, v, kv_len, causal):
    """Run float32 through the spec; the error must lie within the certified bound."""
    case = AT.Case("direct", {"q": q, "k": k, "v": v, "kv_len": kv_len}, {"causal": causal})
    out = SPEC.execution.run(case, "float32")
    err = (out["o"].cpu().double() - SPEC.comparison.oracle(case).values["o"]).abs()
    assert (err <= SPEC.bounding.bound(case, "float32", out).values["o"]).all()
    return out["o"].cpu()


@pytest.mark.parametrize("causal", [False, True])
def test_fully_masked_rows_are_zero_not_nan(causal):
    q, k, v = _inputs(2, 2, 40, 40, 64)
    out = _check_against_oracle(q, k, v, torch.tensor([0, 7], dtype=torch.int32), causal)
    assert not torch.isnan(out).any()
    assert torch.equal(out[0], torch.zeros_like(out[0]))
    assert out[1].abs().sum() > 0


def test_length_not_multiple_of_block_within_bound():
    q, k, v = _inputs(1, 1, 45, 45, 64, seed=3)
    out = _check_against_oracle(q, k, v, torch.tensor([45], dtype=torch.int32), True)
    assert not torch.isnan(out).any()


def _device_inputs(b, h, m, n, d):
    return tuple(t.to(device(), torch.float32) for t in _inputs(b, h, m, n, d))


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("attention:")


def test_shape_mismatch():
    q, k, v = _device_inputs(1, 2, 8, 8, 64)
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q, k[:, :1].contiguous(), v)
    _one_line(excinfo)
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q, k, v[:, :, :5].contiguous())
    _one_line(excinfo)
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q[0], k, v)
    _one_line(excinfo)


def test_head_dim_and_kv_len_rejected():
    q, k, v = (t[..., :32].contiguous() for t in _device_inputs(1, 1, 8, 8, 64))
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q, k, v)
    _one_line(excinfo)
    q, k, v = _device_inputs(1, 1, 8, 8, 64)
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q, k, v, kv_len=torch.tensor([9], dtype=torch.int32, device=device()))
    _one_line(excinfo)
    with pytest.raises(TypeError) as excinfo:
        AT.attention(q, k, v, kv_len=torch.tensor([3.0], device=device()))
    _one_line(excinfo)


def test_dtype_rejected():
    q, k, v = _device_inputs(1, 1, 8, 8, 64)
    with pytest.raises(TypeError) as excinfo:
        AT.attention(q.double(), k.double(), v.double())
    _one_line(excinfo)
    with pytest.raises(TypeError) as excinfo:
        AT.attention(q.half(), k, v)
    _one_line(excinfo)


def test_non_contiguous_rejected():
    q, k, v = _device_inputs(1, 1, 8, 8, 64)
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q.transpose(1, 2), k, v)
    _one_line(excinfo)


def test_wrong_device_rejected():
    q = torch.ones(1, 1, 8, 64, device="meta")
    with pytest.raises(ValueError) as excinfo:
        AT.attention(q, q, q)
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert all(not c["pass"] for c in planted_results(SPEC, "gpu").values())


@pytest.mark.parametrize("bug, case", [
    ("m_starts_at_zero", "scores ≈ -200"),
    ("m_starts_at_zero", "scores ≈ -10000"),
    ("max_before_mask", "masked scores above visible by > 88"),
    ("max_before_mask", "kv_len masks larger scores"),
])
def test_score_range_bugs_fail_on_their_case(planted, bug, case):
    cert = planted[bug]
    assert not cert["pass"]
    assert any(name.startswith(case) for name in _failing_cases(cert))


def test_score_range_bugs_pass_the_cases_without_extreme_scores(planted):
    """The old cases never see these bugs: only the score-range classes catch them."""
    for bug in ("m_starts_at_zero", "max_before_mask"):
        failing = _failing_cases(planted[bug])
        assert not any(name.startswith(("normal", "causal", "head dim")) for name in failing)


def test_contract_classes_are_covered(certificate):
    assert set(SPEC.coverage.contract_classes) <= set(certificate["cases"]["coverage"])
    assert {"all-scores-negative", "masked-scores-dominate", "kv-len-1"} <= set(
        SPEC.coverage.contract_classes)
    assert certificate["cases"]["missing_contract_classes"] == []
