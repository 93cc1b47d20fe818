"""impls/scan.py: multi-block cumulative sum certified against sum.associative and
blelloch_scan.equals_sequential; planted bugs must fail; inputs are checked."""
import pytest
import torch

from impls import scan
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results

BACKEND = backend()
BLOCK = scan.block_size()


@pytest.fixture(scope="module")
def certificate():
    return certify(scan.KERNEL, BACKEND, seed=0)


@pytest.fixture(scope="module")
def planted():
    return planted_results(scan.KERNEL, BACKEND, seed=0)


def test_certificate_passes_with_rounding_observed(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    assert all(v["ok"] for v in certificate["laws"].values()), certificate["laws"]
    certified = {d for d, v in certificate["dtypes"].items() if v["status"] == "certified"}
    assert {"float32", "float16"} <= certified
    if BACKEND == "triton-interpreter":
        assert certificate["dtypes"]["bfloat16"]["status"] == "skipped"
    assert {"length-1", "non-multiple", "multi-block", "cancellation", "dynamic-range",
            "ties"} <= set(certificate["cases"]["coverage"])


@pytest.mark.parametrize("bug", ["wrong_merge_order", "carry_dropped"])
def test_planted_bug_fails_certification(planted, bug):
    assert not planted[bug]["pass"]
    assert planted[bug]["rho"] > 1


@pytest.mark.parametrize("n", [1, BLOCK - 3, BLOCK, BLOCK + 1, 3 * BLOCK + 5])
def test_lengths_around_the_block_are_within_the_bound(n):
    torch.manual_seed(n)
    x = torch.randn(2, n, dtype=torch.float32)
    y = scan.cumsum(x.to(device())).cpu()
    exact = scan.compensated_cumsum(x.double())
    bound = scan.error_bound(x.double(), "float32", y, BLOCK)
    assert bool(((y.double() - exact).abs() <= bound).all())


def test_rows_longer_than_one_block_carry_exactly():
    n = 3 * BLOCK + 5
    y = scan.cumsum(torch.ones(2, n, device=device())).cpu()
    assert torch.equal(y, torch.arange(1, n + 1, dtype=torch.float32).expand(2, n))


def test_bound_is_a_few_roundings_per_leaf():
    n = 6 * BLOCK + 1
    x = torch.randn(1, n, dtype=torch.float64).to(torch.float32).double()
    y = scan.compensated_cumsum(x).float()
    bound = scan.error_bound(x, "float32", y, BLOCK)
    depth = BLOCK + n // BLOCK + 2
    assert bool((bound <= 1.01 * depth * 2.0 ** -24 * x.abs().cumsum(-1) + 1e-30).all())


@pytest.mark.parametrize("make, error, words", [
    (lambda: [[1.0, 2.0]], TypeError, "torch.Tensor"),
    (lambda: torch.ones(5), ValueError, "2-D"),
    (lambda: torch.ones(2, 5, dtype=torch.float64), TypeError, "dtype"),
    (lambda: torch.ones(2, 5, dtype=torch.int32), TypeError, "dtype"),
    (lambda: torch.ones(5, 2).t(), ValueError, "contiguous"),
    (lambda: torch.ones(2, 5, device="meta"), ValueError, "must be on"),
    (lambda: torch.ones(2, 0), ValueError, "empty"),
])
def test_bad_input_raises_one_line(make, error, words):
    x = make()
    if isinstance(x, torch.Tensor) and x.device.type != "meta":
        x = x.to(device())
    with pytest.raises(error, match=words) as info:
        scan.cumsum(x)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_covers_bfloat16():
    cert = certify(scan.KERNEL, "gpu", seed=0)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not any(c["pass"] for c in planted_results(scan.KERNEL, "gpu").values())
