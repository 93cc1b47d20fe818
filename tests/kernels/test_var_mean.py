"""var_mean: the certificate passes, planted bugs fail, inputs are validated, and the
special rows (length 1, constant, ragged last block) behave like torch.var_mean."""

import numpy as np
import pytest
from kernel_checks import assert_compiles_for_gpu
import torch

from impls import var_mean
from impls.spec import Case, backend as running_backend, device
from verify.certification.certify import certify
from verify.certification.comparison import compare_float
from verify.certification.planting import planted_results

BACKEND = running_backend()
SPEC = var_mean.KERNEL


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, BACKEND, check_laws=False)


def test_certificate_passes(certificate):
    assert certificate["pass"], certificate["notes"]
    certified = [d for d, v in certificate["dtypes"].items() if v["status"] == "certified"]
    assert {"float32", "float16"} <= set(certified)
    assert 1e-2 < certificate["rho"] <= 1


def test_certificate_covers_the_adversarial_classes(certificate):
    assert {"length-1", "non-multiple-of-block", "multi-block", "cancellation",
            "huge-dynamic-range", "zero-variance"} <= set(certificate["cases"]["coverage"])
    fp16 = certificate["per_dtype"]["float16"]
    assert any("(fp32)" in name for name in fp16["skipped_cases"])


def test_planted_bugs_fail():
    results = planted_results(SPEC, BACKEND, dtypes=["float32"])
    assert set(results) == {"variance_add", "mask_off_by_one"}
    for name, cert in results.items():
        assert cert["pass"] is False and cert["rho"] > 1, name


def _check(x64, correction=1, dtype="float32"):
    case = Case("adhoc", {"x": x64}, {"correction": correction}, n=x64.shape[-1])
    out = SPEC.execution.run(case, dtype)
    oracle = SPEC.comparison.oracle(case).values
    bound = SPEC.bounding.bound(case, dtype, out).values
    for key in ("var", "mean"):
        r = compare_float(out[key], oracle[key], bound[key])
        assert r["ok"], (key, r)
    return out


def test_length_one_rows_match_torch():
    x = torch.tensor([[2.5], [-7.0]], dtype=torch.float64)
    out = _check(x)
    with pytest.warns(UserWarning, match="degrees of freedom"):
        ref_var, ref_mean = torch.var_mean(x.float(), dim=-1)
    assert bool(torch.isnan(out["var"].cpu()).all()) and bool(torch.isnan(ref_var).all())
    assert out["mean"].cpu().tolist() == [2.5, -7.0]
    assert _check(x, correction=0)["var"].cpu().tolist() == [0.0, 0.0]


def test_constant_rows_have_exactly_zero_variance():
    x = torch.full((2, 150), 0.1, dtype=torch.float32).double()
    out = _check(x)
    assert out["var"].cpu().tolist() == [0.0, 0.0]


@pytest.mark.parametrize("n", [65, 200])
def test_length_not_a_multiple_of_the_block(n):
    assert n % var_mean.config(n)["block"] != 0
    x = torch.tensor(np.random.default_rng(n).normal(3, 2, (3, n))).float().double()
    out = _check(x)
    ref_var, ref_mean = torch.var_mean(x, dim=-1)
    assert torch.allclose(out["var"].cpu().double(), ref_var, rtol=1e-5)
    assert torch.allclose(out["mean"].cpu().double(), ref_mean, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("bad, kwargs, error", [
    ("list", {}, TypeError),
    (torch.ones(3, 4, dtype=torch.int64), {}, TypeError),
    (torch.ones(3, 0), {}, ValueError),
    (torch.ones(4, 3).t(), {}, ValueError),
    (torch.ones(3, 4, device="meta"), {}, ValueError),
    (torch.ones(3, 4), {"correction": 2}, ValueError),
], ids=["not-a-tensor", "int64", "empty-row", "non-contiguous", "device", "correction"])
def test_input_validation(bad, kwargs, error):
    if isinstance(bad, torch.Tensor) and bad.device.type != "meta":
        bad = bad.to(device())
    with pytest.raises(error) as info:
        var_mean.var_mean(bad, **kwargs)
    assert str(info.value).startswith("var_mean:") and "\n" not in str(info.value)


def test_tree_free_bound_covers_the_interpreter_order_too():
    """The GPU bound (any merge order of the modelled height) is never below the
    running bound along the interpreter's exact order for the same height."""
    x = torch.tensor(np.random.default_rng(5).normal(100, 1, (2, 300))).float().double()
    cfg = var_mean.config(300, "triton-interpreter")
    running = var_mean.statistics_bound(x, cfg, "triton-interpreter")
    tree_free = var_mean.statistics_bound(x, cfg, "gpu")
    assert bool((tree_free["mean_err"] >= running["mean_err"]).all())
    assert bool((tree_free["m2_err"] >= running["m2_err"]).all())


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_gpu_certificate_including_bf16():
    cert = certify(SPEC, "gpu", check_laws=False)
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert cert["pass"], cert["notes"]
    assert all(c["pass"] is False for c in planted_results(SPEC, "gpu").values())


_COMPILE = """
import triton
from triton.backends import backends
if "nvidia" not in backends:
    print("no-nvidia-backend")
    raise SystemExit(0)
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from impls import var_mean as m
for constexprs in [{'BLOCK': 4096}, {'BLOCK': 128}]:
    k = triton.compile(ASTSource(fn=m._var_mean_kernel, signature={'x_ptr': '*bf16', 'var_ptr': '*bf16', 'mean_ptr': '*bf16', 'n_cols': 'i32', 'correction': 'fp32', 'BLOCK': 'constexpr'}, constexprs=constexprs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 8})
    assert ".entry" in k.asm["ptx"]
print("compiled")
"""


def test_kernel_compiles_for_a_gpu_target():
    """The interpreter never compiles the kernel: compile it to PTX for sm_90 (two block
    sizes) in a process without TRITON_INTERPRET. Needs no GPU."""
    assert_compiles_for_gpu(_COMPILE)


@pytest.mark.parametrize("n", [17, 33, 65, 129])
def test_last_column_dropped_fails_when_n_is_one_past_a_power_of_two(n):
    from variants import last_column_dropped, only_cases, variant_failures
    assert variant_failures(only_cases(SPEC, f"rows=2 n={n} max last"),
                            last_column_dropped(SPEC, n))


def test_contract_classes_are_covered(certificate):
    assert not certificate["cases"]["missing_contract_classes"]
    assert {"one-past-power-of-two", "max-in-last-partial-block", "all-negative",
            "length-1"} <= set(certificate["cases"]["contract_classes"])
