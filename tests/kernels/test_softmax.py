"""Softmax / log-sum-exp: the certificate passes, planted bugs fail, inputs are
validated, and the special rows (fully masked, length 1, ragged last block) behave."""
import math

import numpy as np
import pytest
from kernel_checks import assert_compiles_for_gpu
import torch

from impls import softmax
from impls.spec import Case, backend as running_backend, device
from verify.certification.certify import certify
from verify.certification.comparison import compare_float
from verify.certification.planting import planted_results

BACKEND = running_backend()
SPEC = softmax.KERNEL


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, BACKEND, check_laws=False)


def test_certificate_passes(certificate):
    assert certificate["pass"], certificate["notes"]
    assert certificate["rho"] <= 1
    certified = [d for d, v in certificate["dtypes"].items() if v["status"] == "certified"]
    assert {"float32", "float16"} <= set(certified)
    for dtype in certified:
        assert all(case["pass"] for case in certificate["per_dtype"][dtype]["cases"])


def test_certificate_covers_the_adversarial_classes(certificate):
    assert {"length-1", "non-multiple-of-block", "multi-block", "-inf-mask",
            "fully-masked-row", "huge-dynamic-range"} <= set(certificate["cases"]["coverage"])


def test_bound_is_not_vacuous(certificate):
    """ρ is not tiny everywhere: the bound is within a few hundred of the real error."""
    assert certificate["rho"] > 1e-2


@pytest.mark.skipif(BACKEND != "triton-interpreter", reason="interpreter behaviour")
def test_bf16_skipped_in_the_interpreter(certificate):
    assert certificate["dtypes"]["bfloat16"]["status"] == "skipped"
    assert any("bfloat16" in note for note in certificate["notes"])


def test_planted_bugs_fail():
    results = planted_results(SPEC, BACKEND, dtypes=["float32"])
    assert set(results) == {"rescale_dropped", "mask_off_by_one"}
    for name, cert in results.items():
        assert cert["pass"] is False, name
        assert cert["rho"] > 1, name


def _check_against_bound(x64, dtype="float32"):
    case = Case("adhoc", {"x": x64}, n=x64.shape[-1])
    out = SPEC.execution.run(case, dtype)
    oracle = SPEC.comparison.oracle(case).values
    bound = SPEC.bounding.bound(case, dtype, out).values
    for key in ("softmax", "lse"):
        r = compare_float(out[key], oracle[key], bound[key])
        assert r["ok"], (key, r)
    return out


def test_fully_masked_row_gives_zeros_and_minus_inf():
    x = torch.full((2, 70), -math.inf, dtype=torch.float64)
    x[1, 5] = 2.0
    out = _check_against_bound(x)
    y, lse = out["softmax"].cpu(), out["lse"].cpu()
    assert not bool(torch.isnan(y).any() or torch.isnan(lse).any())
    assert bool((y[0] == 0).all()) and lse[0].item() == -math.inf
    assert y[1, 5].item() == 1.0 and lse[1].item() == 2.0


def test_length_one_rows():
    x = torch.tensor([[3.5], [-1e4], [-math.inf]], dtype=torch.float64)
    out = _check_against_bound(x)
    assert out["softmax"].cpu().flatten().tolist() == [1.0, 1.0, 0.0]
    assert out["lse"].cpu().tolist() == [3.5, -1e4, -math.inf]


@pytest.mark.parametrize("n", [65, 130])
def test_length_not_a_multiple_of_the_block(n):
    block = softmax.config(n)["block"]
    assert n % block != 0 and n > block
    x = torch.tensor(np.random.default_rng(n).normal(0, 3, (3, n))).float().double()
    out = _check_against_bound(x)
    ref = torch.softmax(x, dim=-1)
    assert torch.allclose(out["softmax"].cpu().double(), ref, rtol=1e-5, atol=1e-7)


def test_leading_dimensions_are_rows():
    x = torch.randn(2, 3, 9, device=device())
    y, lse = softmax.softmax_lse(x)
    assert y.shape == x.shape and lse.shape == (2, 3)
    assert torch.allclose(y.cpu(), torch.softmax(x.cpu(), -1), atol=1e-6)
    assert torch.allclose(lse.cpu(), torch.logsumexp(x.cpu(), -1), atol=1e-5)


@pytest.mark.parametrize("bad, error", [
    ([1.0, 2.0], TypeError),
    (torch.ones(3, 4, dtype=torch.float64), TypeError),
    (torch.ones(3, 4, dtype=torch.int32), TypeError),
    (torch.ones(3, 0), ValueError),
    (torch.tensor(1.0), ValueError),
    (torch.ones(4, 3).t(), ValueError),
    (torch.ones(3, 4, device="meta"), ValueError),
], ids=["list", "float64", "int32", "empty-row", "scalar", "non-contiguous", "device"])
def test_input_validation(bad, error):
    if isinstance(bad, torch.Tensor) and bad.device.type != "meta":
        bad = bad.to(device())
    with pytest.raises(error) as info:
        softmax.softmax_lse(bad)
    message = str(info.value)
    assert message.startswith("softmax:") and "\n" not in message


def _ulps(approx: np.ndarray, exact: np.ndarray) -> float:
    spacing = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    return float(np.max(np.abs(approx.astype(np.float64) - exact) / spacing))


@pytest.mark.skipif(BACKEND != "triton-interpreter", reason="the interpreter's exp and log")
def test_interpreter_exp_and_log_meet_the_documented_ulp_assumption():
    """The bound assumes tl.exp and tl.log within 4 ulp; the interpreter computes them
    with numpy in float32. Checked against mpmath on a dense sample."""
    import mpmath
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.uniform(-87, 88, 3000), rng.uniform(-1, 1, 1000)]).astype(np.float32)
    exact = np.array([float(mpmath.exp(mpmath.mpf(float(v)))) for v in xs])
    assert _ulps(np.exp(xs), exact) <= softmax.EXP_ULPS
    ys = np.concatenate([rng.uniform(1e-3, 2, 2000), rng.uniform(1, 1e6, 2000)]).astype(np.float32)
    exact = np.array([float(mpmath.log(mpmath.mpf(float(v)))) for v in ys])
    assert _ulps(np.log(ys), exact) <= softmax.LOG_ULPS


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
from impls import softmax as m
for constexprs in [{'BLOCK': 4096}, {'BLOCK': 128}]:
    k = triton.compile(ASTSource(fn=m._softmax_kernel, signature={'x_ptr': '*bf16', 'y_ptr': '*bf16', 'lse_ptr': '*fp32', 'n_cols': 'i32', 'BLOCK': 'constexpr'}, constexprs=constexprs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 8})
    assert ".entry" in k.asm["ptx"]
print("compiled")
"""


def test_kernel_compiles_for_a_gpu_target():
    """The interpreter never compiles the kernel: compile it to PTX for sm_90 (two block
    sizes) in a process without TRITON_INTERPRET. Needs no GPU."""
    assert_compiles_for_gpu(_COMPILE)


def _statistics_from_zero(case, dtype):
    """A broken variant: the running max starts at 0 instead of −∞, so a row far below
    zero underflows every exponential (0/0)."""
    x = case.inputs["x"].to(getattr(torch, dtype)).float()
    m = x.amax(-1, keepdim=True).clamp_min(0.0)
    s = torch.exp(x - m).sum(-1, keepdim=True)
    return {"softmax": (torch.exp(x - m) / s).to(getattr(torch, dtype)),
            "lse": (m + torch.log(s)).squeeze(-1)}


def test_max_started_at_zero_fails_on_the_all_negative_rows():
    from variants import variant_failures
    failing = variant_failures(SPEC, _statistics_from_zero)
    assert any("all far below zero" in name for name in failing)
    assert not any(name.startswith("rows=3 n=64") for name in failing)


@pytest.mark.parametrize("n", [17, 33, 65, 129])
def test_last_column_dropped_fails_when_the_max_is_last(n):
    """The planted statistics pass that loads one column too few misses the row's max
    when it is the last entry of the last partial block."""
    from variants import only_cases
    spec = only_cases(SPEC, f"rows=2 n={n} max last")
    cert = planted_results(spec, BACKEND, dtypes=["float32"])["mask_off_by_one"]
    assert not cert["pass"]
    assert not cert["per_dtype"]["float32"]["cases"][0]["pass"]


def test_contract_classes_are_covered(certificate):
    assert not certificate["cases"]["missing_contract_classes"]
    assert {"one-past-power-of-two", "max-in-last-partial-block", "all-negative",
            "length-1"} <= set(certificate["cases"]["contract_classes"])
