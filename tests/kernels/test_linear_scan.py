"""impls/linear_scan.py: h_t = a_t·h_{t−1} + b_t by a blocked parallel scan, certified
against linear_recurrence.associative / .identity; planted bugs must fail."""
import pytest
import torch

from impls import linear_scan as ls
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results

BACKEND = backend()
BLOCK = ls.block_size()


@pytest.fixture(scope="module")
def certificate():
    return certify(ls.KERNEL, BACKEND, seed=0)


@pytest.fixture(scope="module")
def planted():
    return planted_results(ls.KERNEL, BACKEND, seed=0)


def test_certificate_passes_with_rounding_observed(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    assert all(v["ok"] for v in certificate["laws"].values()), certificate["laws"]
    certified = {d for d, v in certificate["dtypes"].items() if v["status"] == "certified"}
    assert {"float32", "float16"} <= certified
    assert {"length-1", "non-multiple", "multi-block", "cancellation", "dynamic-range",
            "ties", "growth", "unrepresentable-inputs"} <= set(certificate["cases"]["coverage"])


@pytest.mark.parametrize("bug", ["wrong_merge_order", "carry_dropped"])
def test_planted_bug_fails_certification(planted, bug):
    assert not planted[bug]["pass"]
    assert planted[bug]["rho"] > 1


def _check(a: torch.Tensor, b: torch.Tensor) -> None:
    h = ls.linear_scan(a.to(device()), b.to(device())).cpu()
    exact = ls.sequential(a.double(), b.double())
    bound = (ls.recurrence_error(a.double(), b.double(), BLOCK)["bound"]
             + ls.sequential_oracle_error(a, b, exact))
    assert bool(((h.double() - exact).abs() <= bound).all())


@pytest.mark.parametrize("n", [1, BLOCK - 1, BLOCK, 2 * BLOCK + 3])
def test_lengths_around_the_block_are_within_the_bound(n):
    torch.manual_seed(n)
    _check(torch.rand(2, n) * 0.5 + 0.5, torch.randn(2, n))


def test_carry_composes_decays_across_blocks():
    n = 4 * BLOCK + 7
    a, b = torch.full((1, n), 0.5), torch.ones(1, n)
    _check(a, b)
    h = ls.linear_scan(a.to(device()), b.to(device())).cpu()
    starts = h[0, BLOCK::BLOCK]
    assert bool((starts == 2.0).all())  # 2 − 2^-(t+1) rounds to 2; without a carry it is 1


def test_zero_decay_resets_state():
    a = torch.tensor([[0.9] * 5 + [0.0] + [0.9] * (2 * BLOCK)])
    b = torch.randn(a.shape)
    _check(a, b)
    h = ls.linear_scan(a.to(device()), b.to(device())).cpu()
    assert h[0, 5] == b[0, 5]


def test_bound_grows_only_with_rounding_counts():
    n = 3 * BLOCK
    a, b = torch.full((1, n), 0.9, dtype=torch.float64), torch.ones(1, n, dtype=torch.float64)
    bound = ls.recurrence_error(a, b, BLOCK)["bound"]
    h = ls.sequential(a, b)
    # With decay 0.9 the weighted lag sum is ≤ 10·H, so a few hundred roundings at most.
    assert bool((bound <= (BLOCK + 20) * 2.0 ** -24 * 1.01 * h).all())


@pytest.mark.parametrize("make, error, words", [
    (lambda: (torch.ones(2, 4), [[1.0]]), TypeError, "torch.Tensor"),
    (lambda: (torch.ones(4), torch.ones(4)), ValueError, "2-D"),
    (lambda: (torch.ones(2, 4), torch.ones(2, 5)), ValueError, "shapes differ"),
    (lambda: (torch.ones(2, 4), torch.ones(2, 4, dtype=torch.float16)), TypeError, "dtypes differ"),
    (lambda: (torch.ones(2, 4, dtype=torch.float64),) * 2, TypeError, "dtype"),
    (lambda: (torch.ones(4, 2).t(), torch.ones(2, 4)), ValueError, "contiguous"),
    (lambda: (torch.ones(2, 4), torch.ones(2, 4, device="meta")), ValueError, "must be on"),
    (lambda: (torch.ones(2, 0), torch.ones(2, 0)), ValueError, "empty"),
])
def test_bad_input_raises_one_line(make, error, words):
    a, b = (v.to(device()) if isinstance(v, torch.Tensor) and v.device.type != "meta" else v
            for v in make())
    with pytest.raises(error, match=words) as info:
        ls.linear_scan(a, b)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_covers_bfloat16():
    cert = certify(ls.KERNEL, "gpu", seed=0)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not any(c["pass"] for c in planted_results(ls.KERNEL, "gpu").values())
