"""The tiled matmul: certified on this backend, the planted K-tail bug caught, inputs
validated."""
from __future__ import annotations

import pytest
from kernel_checks import assert_bench_reports
import torch

from impls import matmul as MM
from impls.numerics import half_exact
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results
from verify.certification.binding import as_spec

SPEC = as_spec(MM.KERNEL)


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, backend(), seed=0, check_laws=False)


def test_certificate_passes_every_case(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    for dtype, result in certificate["per_dtype"].items():
        assert all(case["pass"] for case in result["cases"]), dtype
    assert {"float16", "float32"} <= set(certificate["per_dtype"])
    assert "k-not-multiple-of-block" in certificate["cases"]["coverage"]


def test_interpreter_skips_bf16_and_says_so(certificate):
    if backend() == "gpu":
        pytest.skip("bf16 is certified on a GPU")
    assert certificate["dtypes"]["bfloat16"]["status"] == "skipped"
    assert "GPU" in certificate["dtypes"]["bfloat16"]["reason"]


def test_precision_records_input_precision():
    assert SPEC.comparison.precision("float32")["input_precision"] in ("ieee", "tf32")
    if backend() != "gpu":
        assert SPEC.comparison.precision("float32")["input_precision"] == "ieee"


def test_k_tail_dropped_is_caught_numerically():
    result = planted_results(SPEC, backend(), seed=0)["k_tail_dropped"]
    assert not result["pass"]
    for case in result["per_dtype"]["float32"]["cases"]:
        assert "problem" not in case  # a wrong answer, not a crash
        k = int(case["name"].rsplit("K=", 1)[1])
        assert case["pass"] == (k % MM.blocks()["BLOCK_K"] == 0), case["name"]


def test_k_not_multiple_of_block_matches_oracle_within_bound():
    gen = torch.Generator().manual_seed(1)
    a = half_exact(torch.randn(7, 45, generator=gen, dtype=torch.float64))
    b = half_exact(torch.randn(45, 9, generator=gen, dtype=torch.float64))
    case = MM.Case("K=45", {"a": a, "b": b}, {})
    out = SPEC.execution.run(case, "float32")
    bound = SPEC.bounding.bound(case, "float32", out).values["c"]
    err = (out["c"].cpu().double() - a @ b).abs()
    assert (err <= bound).all()
    assert (bound < 1e-2 * (a.abs() @ b.abs()) + 1e-30).all()  # a bound that says something


def test_cases_are_deterministic():
    first = list(SPEC.coverage.cases(3, backend()))
    second = list(SPEC.coverage.cases(3, backend()))
    assert [c.name for c in first] == [c.name for c in second]
    assert all(torch.equal(x.inputs["a"], y.inputs["a"]) for x, y in zip(first, second))


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("matmul:")


@pytest.mark.parametrize("a_shape,b_shape", [((4, 5), (6, 3)), ((4,), (4, 3)),
                                             ((2, 4, 5), (5, 3))])
def test_shape_mismatch(a_shape, b_shape):
    with pytest.raises(ValueError) as excinfo:
        MM.matmul(torch.ones(a_shape, device=device()), torch.ones(b_shape, device=device()))
    _one_line(excinfo)


def test_dtype_rejected():
    with pytest.raises(TypeError) as excinfo:
        MM.matmul(torch.ones(4, 4, dtype=torch.float64, device=device()),
                  torch.ones(4, 4, dtype=torch.float64, device=device()))
    _one_line(excinfo)
    with pytest.raises(TypeError) as excinfo:
        MM.matmul(torch.ones(4, 4, dtype=torch.float16, device=device()),
                  torch.ones(4, 4, dtype=torch.float32, device=device()))
    _one_line(excinfo)


def test_non_contiguous_rejected():
    a = torch.ones(8, 4, device=device()).t()
    with pytest.raises(ValueError) as excinfo:
        MM.matmul(a, torch.ones(8, 3, device=device()))
    _one_line(excinfo)


def test_wrong_device_rejected():
    with pytest.raises(ValueError) as excinfo:
        MM.matmul(torch.ones(4, 4, device="meta"), torch.ones(4, 4, device="meta"))
    _one_line(excinfo)


def test_bad_input_precision_rejected():
    with pytest.raises(ValueError) as excinfo:
        MM.matmul(torch.ones(4, 4, device=device()), torch.ones(4, 4, device=device()),
                  input_precision="tf32x3")
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16_and_tf32():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert cert["dtypes"]["float32"]["input_precision"] == "tf32"
    assert not planted_results(SPEC, "gpu")["k_tail_dropped"]["pass"]
