"""layer_norm: the certificate passes, planted bugs fail, inputs are validated, and
the special rows (length 1, constant, eps-dominated, ragged last block) behave."""

import numpy as np
import pytest
from kernel_checks import assert_compiles_for_gpu
import torch

from impls import layer_norm as ln
from impls.spec import Case, backend as running_backend, device
from verify.certification.certify import certify
from verify.certification.comparison import compare_float
from verify.certification.planting import planted_results

BACKEND = running_backend()
SPEC = ln.KERNEL
EPS = float(np.float32(1e-5))


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
            "huge-dynamic-range", "eps-dominated", "large-eps"} <= set(
        certificate["cases"]["coverage"])
    assert "impls/var_mean.py" in [f["path"] for f in certificate["sources"]]


def test_planted_bugs_fail():
    results = planted_results(SPEC, BACKEND, dtypes=["float32"])
    assert set(results) == {"eps_outside_sqrt", "variance_add"}
    for name, cert in results.items():
        assert cert["pass"] is False and cert["rho"] > 1, name


def _check(x64, w64=None, b64=None, eps=EPS, dtype="float32"):
    n = x64.shape[-1]
    rng = np.random.default_rng(n)
    w64 = torch.tensor(rng.normal(1, 0.5, n)).float().double() if w64 is None else w64
    b64 = torch.tensor(rng.normal(0, 0.5, n)).float().double() if b64 is None else b64
    case = Case("adhoc", {"x": x64, "weight": w64, "bias": b64}, {"eps": eps}, n=n)
    out = SPEC.execution.run(case, dtype)
    oracle = SPEC.comparison.oracle(case).values
    bound = SPEC.bounding.bound(case, dtype, out).values
    for key in ("y", "mean", "rstd"):
        r = compare_float(out[key], oracle[key], bound[key])
        assert r["ok"], (key, r)
    return out, w64, b64


def test_length_one_rows_give_the_bias():
    x = torch.tensor([[2.5], [-7.0]], dtype=torch.float64)
    out, w, b = _check(x)
    assert torch.equal(out["y"].cpu().double(), b.expand(2, 1))


def test_constant_rows_give_the_bias():
    out, w, b = _check(torch.full((2, 100), 0.75, dtype=torch.float64))
    assert torch.equal(out["y"].cpu().double(), b.expand(2, 100))


def test_eps_dominated_rows():
    x = (1e-3 * torch.randn(2, 90, dtype=torch.float64)).float().double()
    out, w, b = _check(x)
    ref = torch.nn.functional.layer_norm(x, (90,), w, b, EPS)
    assert torch.allclose(out["y"].cpu().double(), ref, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("n", [65, 200])
def test_length_not_a_multiple_of_the_block(n):
    assert n % ln.config(n)["block"] != 0
    x = torch.tensor(np.random.default_rng(n).normal(3, 2, (3, n))).float().double()
    out, w, b = _check(x)
    ref = torch.nn.functional.layer_norm(x, (n,), w, b, EPS)
    assert torch.allclose(out["y"].cpu().double(), ref, rtol=1e-4, atol=1e-5)


def _inputs(n=8, dtype=torch.float32):
    dev = device()
    return (torch.randn(3, n, dtype=dtype, device=dev), torch.ones(n, dtype=dtype, device=dev),
            torch.zeros(n, dtype=dtype, device=dev))


@pytest.mark.parametrize("change, error", [
    (lambda x, w, b: (x, w[:-1], b, 1e-5), ValueError),
    (lambda x, w, b: (x, w, b.half(), 1e-5), TypeError),
    (lambda x, w, b: (x, "w", b, 1e-5), TypeError),
    (lambda x, w, b: (x, w, b, -1.0), ValueError),
    (lambda x, w, b: (x, w, b, "small"), TypeError),
    (lambda x, w, b: (x.double(), w.double(), b.double(), 1e-5), TypeError),
    (lambda x, w, b: (x.t(), w[:3], b[:3], 1e-5), ValueError),
    (lambda x, w, b: (x[:, :0], w[:0], b[:0], 1e-5), ValueError),
    (lambda x, w, b: (x, torch.ones(8, device="meta"), b, 1e-5), ValueError),
], ids=["weight-shape", "bias-dtype", "weight-type", "eps-negative", "eps-type",
        "float64", "non-contiguous", "empty-row", "weight-device"])
def test_input_validation(change, error):
    args = change(*_inputs())
    with pytest.raises(error) as info:
        ln.layer_norm(*args[:3], eps=args[3])
    assert str(info.value).startswith(("layer_norm:",)) and "\n" not in str(info.value)


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
from impls import layer_norm as m
for constexprs in [{'BLOCK': 1024}, {'BLOCK': 128}]:
    k = triton.compile(ASTSource(fn=m._layer_norm_kernel, signature={'x_ptr': '*fp16', 'w_ptr': '*fp16', 'b_ptr': '*fp16', 'y_ptr': '*fp16', 'mean_ptr': '*fp32', 'rstd_ptr': '*fp32', 'n_cols': 'i32', 'eps': 'fp32', 'BLOCK': 'constexpr'}, constexprs=constexprs),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
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
