"""Fused LoRA: certified on this backend, the reversed factor order caught, inputs
validated."""
from __future__ import annotations

import pytest
from kernel_checks import assert_bench_reports
import torch

from impls import lora as LO
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results
from verify.certification.binding import as_spec

SPEC = as_spec(LO.KERNEL)


def test_certificate_passes_every_case():
    cert = certify(SPEC, backend(), seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert 0 < cert["rho"] <= 1
    for dtype, result in cert["per_dtype"].items():
        assert all(case["pass"] for case in result["cases"]), dtype
    assert {"rectangular", "cancellation", "k-not-multiple-of-block"} <= set(
        cert["cases"]["coverage"])


def test_wrong_order_fails_numerically_where_shapes_allow_it():
    cert = planted_results(SPEC, backend(), seed=0)["wrong_order"]
    assert not cert["pass"]
    for case in cert["per_dtype"]["float32"]["cases"]:
        if case["name"].startswith("rectangular"):
            assert "d_in = d_out" in case["problem"]
        else:
            assert "problem" not in case and case["rho"] > 1, case["name"]


def test_fused_equals_unfused_law_on_integers():
    """Small integers make every route exact, so xW + (xB)A must match x(W + BA) exactly."""
    gen = torch.Generator().manual_seed(0)
    x, w = (torch.randint(-3, 4, s, generator=gen).float() for s in ((9, 40), (40, 24)))
    b, a = (torch.randint(-3, 4, s, generator=gen).float() for s in ((40, 5), (5, 24)))
    y = LO.lora(*(t.to(device()) for t in (x, w, b, a)))
    assert torch.equal(y.cpu(), x @ (w + b @ a))


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("lora:")


def _operands(m=8, d_in=32, d_out=24, r=4, dtype=torch.float32):
    return (torch.ones(m, d_in, dtype=dtype, device=device()),
            torch.ones(d_in, d_out, dtype=dtype, device=device()),
            torch.ones(d_in, r, dtype=dtype, device=device()),
            torch.ones(r, d_out, dtype=dtype, device=device()))


def test_shape_mismatch():
    x, w, b, a = _operands()
    for args in ((x, w, b, a[:3].contiguous()), (x, w[:31].contiguous(), b, a),
                 (x, w, b[:, :2].contiguous(), a), (x[0], w, b, a)):
        with pytest.raises(ValueError) as excinfo:
            LO.lora(*args)
        _one_line(excinfo)


def test_rank_limit():
    with pytest.raises(ValueError) as excinfo:
        LO.lora(*_operands(r=LO.MAX_RANK + 1))
    _one_line(excinfo)


def test_dtype_rejected():
    x, w, b, a = _operands()
    with pytest.raises(TypeError) as excinfo:
        LO.lora(x.double(), w.double(), b.double(), a.double())
    _one_line(excinfo)
    with pytest.raises(TypeError) as excinfo:
        LO.lora(x.half(), w, b, a)
    _one_line(excinfo)


def test_non_contiguous_rejected():
    x, w, b, a = _operands(d_in=24)
    with pytest.raises(ValueError) as excinfo:
        LO.lora(x, w.t(), b, a)
    _one_line(excinfo)


def test_wrong_device_rejected():
    x, w, b, a = (t.to("meta") for t in _operands())
    with pytest.raises(ValueError) as excinfo:
        LO.lora(x, w, b, a)
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not planted_results(SPEC, "gpu")["wrong_order"]["pass"]


def _rank_cut_to_a_power_of_two(case, dtype):
    """A broken variant: the rank padded to the power of two below r, not above, so
    ranks one past a power of two lose their last component."""
    import dataclasses
    r = case.inputs["b"].shape[1]
    keep = 1 << (r.bit_length() - 1)
    inputs = dict(case.inputs, b=case.inputs["b"][:, :keep], a=case.inputs["a"][:keep])
    return SPEC.execution.run(dataclasses.replace(case, inputs=inputs), dtype)


def test_rank_padding_bug_fails_one_past_the_padding_power():
    from variants import variant_failures
    failing = variant_failures(SPEC, _rank_cut_to_a_power_of_two)
    for r in (17, 33, 65):
        assert any(name.startswith(f"rank {r} ") for name in failing), r
    assert not any(name.startswith(("rank 16 ", "rank 32 ", "rank 64 ")) for name in failing)


def test_contract_classes_cover_ranks_past_the_padding():
    cert = certify(SPEC, backend(), seed=0, dtypes=["float32"], check_laws=False)
    assert cert["pass"]
    assert {"rank-one-past-padding", "rank-at-padding"} <= set(cert["cases"]["coverage"])
    assert not cert["cases"]["missing_contract_classes"]
