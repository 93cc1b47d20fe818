"""Weight-only int8 matmul: certified on this backend with the integer part exact, the
quantization laws hold on the measured outputs, the wrong scale axis caught, inputs
validated."""
from __future__ import annotations

import pytest
from kernel_checks import assert_bench_reports
import torch

from impls import int8_matmul as IM
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results
from verify.certification.binding import as_spec

SPEC = as_spec(IM.KERNEL)


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, backend(), seed=0, check_laws=False)


def test_certificate_passes_every_case(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    for dtype, result in certificate["per_dtype"].items():
        assert all(case["pass"] for case in result["cases"]), dtype


def test_integer_accumulation_is_certified_exact(certificate):
    integer_cases = 0
    for result in certificate["per_dtype"].values():
        for case in result["cases"]:
            if case["name"].startswith("integer"):
                integer_cases += 1
                acc = case["outputs"]["acc"]
                assert acc["max_bound"] == 0.0 and acc["max_error"] == 0.0, case["name"]
    assert integer_cases >= 2


def test_exactness_needs_integers_below_2_to_the_24():
    x = torch.full((1, 4), 100.0, dtype=torch.float64)
    assert IM.accumulation_is_exact(x, torch.full((4, 3), 127, dtype=torch.int8))
    assert not IM.accumulation_is_exact(x + 0.5, torch.full((4, 3), 127, dtype=torch.int8))
    big = torch.full((1, 2000), 100.0, dtype=torch.float64)
    assert not IM.accumulation_is_exact(big, torch.full((2000, 1), -128, dtype=torch.int8))


def test_quantization_laws_hold_on_measured_outputs():
    """|W − W_q s| ≤ s/2 and |xW − ŷ| ≤ Σₖ|xₖ| s/2 + the kernel's own bound."""
    checked = 0
    for case in SPEC.coverage.cases(0, backend()):
        if "w" not in case.inputs:
            continue
        w, wq, s, x = (case.inputs[n] for n in ("w", "wq", "s", "x"))
        assert ((w - wq.double() * s).abs() <= s / 2).all()
        for dtype in ("float16", "float32"):
            out = SPEC.execution.run(case, dtype)
            kernel_bound = SPEC.bounding.bound(case, dtype, out).values["y"]
            law_bound = (x.abs().sum(1, keepdim=True) * s / 2) * (1 + 1e-12)
            err = (out["y"].cpu().double() - x @ w).abs()
            assert (err <= law_bound + kernel_bound).all(), case.name
        checked += 1
    assert checked >= 3


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # the bug's fp16 output
def test_scale_per_row_is_caught():
    cert = planted_results(SPEC, backend(), seed=0)["scale_per_row"]
    assert not cert["pass"]
    cases = cert["per_dtype"]["float32"]["cases"]
    assert all("problem" not in case for case in cases)
    assert sum(not case["pass"] for case in cases) >= len(cases) - 1  # unit scales agree


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("int8_matmul:")


def _operands(m=4, k=40, n=24):
    return (torch.ones(m, k, device=device()), torch.ones(k, n, dtype=torch.int8, device=device()),
            torch.ones(n, device=device()))


def test_k_not_multiple_of_block():
    x, wq, s = _operands(k=37)
    assert torch.equal(IM.int8_matmul(x, wq, s).cpu(), torch.full((4, 24), 37.0))


def test_shape_mismatch():
    x, wq, s = _operands()
    for args in ((x, wq[:39].contiguous(), s), (x, wq, s[:23].contiguous()), (x[0], wq, s)):
        with pytest.raises(ValueError) as excinfo:
            IM.int8_matmul(*args)
        _one_line(excinfo)


def test_dtype_rejected():
    x, wq, s = _operands()
    for args in ((x, wq.float(), s), (x, wq, s.double()), (x.double(), wq, s)):
        with pytest.raises(TypeError) as excinfo:
            IM.int8_matmul(*args)
        _one_line(excinfo)


def test_non_contiguous_rejected():
    x, wq, s = _operands(k=24)
    with pytest.raises(ValueError) as excinfo:
        IM.int8_matmul(x, wq.t(), s)
    _one_line(excinfo)


def test_wrong_device_rejected():
    x, wq, s = (t.to("meta") for t in _operands())
    with pytest.raises(ValueError) as excinfo:
        IM.int8_matmul(x, wq, s)
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not planted_results(SPEC, "gpu")["scale_per_row"]["pass"]


def test_quantizer_that_floors_fails_against_the_float_weights(monkeypatch):
    """The module's quantizer replaced by one that floors: the cases are built with it
    too, so x·(W_q s) still agrees exactly; only the comparison with x·W catches it."""
    from impls.spec import backend as running_backend
    def floor_quantize(w):
        s = (w.abs().amax(0) / 127.0).to(torch.float32)
        s = torch.where(s > 0, s, torch.ones_like(s))
        return torch.clamp(torch.floor(w / s), -127, 127).to(torch.int8), s
    monkeypatch.setattr(IM, "quantize", floor_quantize)
    cert = certify(SPEC, running_backend(), seed=0, dtypes=["float32"], check_laws=False)
    assert not cert["pass"]
    failing = {c["name"]: c for c in cert["per_dtype"]["float32"]["cases"] if not c["pass"]}
    rounding = [c for name, c in failing.items() if name.startswith("W/s fractions 0.9")]
    assert rounding and not rounding[0]["outputs"]["y_w"]["ok"]
    assert rounding[0]["outputs"]["y"]["ok"]


def test_planted_floor_quantizer_fails(planted_all):
    assert not planted_all["quantizer_floors"]["pass"]


@pytest.fixture(scope="module")
def planted_all():
    from impls.spec import backend as running_backend
    return planted_results(SPEC, running_backend(), seed=0, dtypes=["float32"])


def test_contract_classes_are_covered(certificate):
    assert not certificate["cases"]["missing_contract_classes"]
    assert {"float-weights", "rounding-direction"} <= set(SPEC.coverage.contract_classes)
