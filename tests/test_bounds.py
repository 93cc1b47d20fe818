"""The error-bound helpers: constants, γₙ, upward rounding, and each bound holding for
real float computations (and being violated when the computation is wrong)."""
import math
from fractions import Fraction

import numpy as np
import pytest
import torch

from verify.certification import bounds


def test_unit_roundoffs_and_aliases():
    assert bounds.unit_roundoff("float64") == 2.0 ** -53
    assert bounds.unit_roundoff(torch.float32) == 2.0 ** -24
    assert bounds.unit_roundoff("tf32") == 2.0 ** -11
    assert bounds.unit_roundoff("fp16") == 2.0 ** -11
    assert bounds.unit_roundoff("bf16") == 2.0 ** -8
    with pytest.raises(ValueError):
        bounds.unit_roundoff("float8")


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 10 ** 6])
def test_gamma_is_rounded_upward(n):
    u = 2.0 ** -24
    exact = Fraction(n) * Fraction(u) / (1 - Fraction(n) * Fraction(u))
    assert Fraction(bounds.gamma(n, u)) > exact


def test_gamma_without_a_bound_and_bad_n():
    assert bounds.gamma(2 ** 11, 2.0 ** -11) == math.inf
    assert bounds.gamma(0, 2.0 ** -24) == 0.0
    with pytest.raises(ValueError):
        bounds.gamma(-1, 2.0 ** -24)


def test_round_up_moves_strictly_up_and_keeps_exact_zero():
    assert bounds.round_up(1.0) > 1.0
    assert bounds.round_up(0.0) == 0.0
    t = torch.tensor([1e-300, 3.0, 1e300], dtype=torch.float64)
    assert bool((bounds.round_up(t) > t).all())
    assert float(bounds.round_up(torch.zeros(1, dtype=torch.float64))[0]) == 0.0


def _fp32_left_sum(x):
    acc = np.float32(0.0)
    for v in x.astype(np.float32):
        acc = np.float32(acc + v)
    return float(acc)


def _fp32_pairwise_sum(x):
    x = list(x.astype(np.float32))
    while len(x) > 1:
        pairs = [np.float32(x[i] + x[i + 1]) for i in range(0, len(x) - 1, 2)]
        x = pairs + ([x[-1]] if len(x) % 2 else [])
    return float(x[0])


def _data(seed, n):
    rng = np.random.default_rng(seed)
    big = rng.normal(0, 1, n) * 10.0 ** rng.uniform(-3, 6, n)     # huge dynamic range
    cancel = np.concatenate([big, -big[::-1]])[:n]                 # cancellation
    return [big.astype(np.float32).astype(np.float64),
            cancel.astype(np.float32).astype(np.float64)]


@pytest.mark.parametrize("seed", range(3))
def test_sum_bounds_hold_for_fp32_sums(seed):
    u = bounds.unit_roundoff("float32")
    for x in _data(seed, 777):
        exact = math.fsum(x)
        t = torch.tensor(x).unsqueeze(0)
        assert abs(_fp32_left_sum(x) - exact) <= float(bounds.recursive_sum_bound(t, u)[0])
        assert abs(_fp32_pairwise_sum(x) - exact) <= float(bounds.pairwise_sum_bound(t, u)[0])


def test_pairwise_bound_is_smaller_than_recursive():
    t = torch.rand(1, 4096, dtype=torch.float64)
    u = 2.0 ** -24
    assert float(bounds.pairwise_sum_bound(t, u)[0]) < float(bounds.recursive_sum_bound(t, u)[0]) / 100


def test_sum_bound_catches_a_dropped_term():
    x = np.ones(500)
    t = torch.tensor(x).unsqueeze(0)
    wrong = _fp32_left_sum(x[:-1])
    assert abs(wrong - 500.0) > float(bounds.recursive_sum_bound(t, 2.0 ** -24)[0])


@pytest.mark.parametrize("seed", range(3))
def test_dot_bound_holds_for_an_fp32_dot(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, 513).astype(np.float32)
    y = (rng.normal(0, 1, 513) * 10.0 ** rng.uniform(-2, 2, 513)).astype(np.float32)
    acc = np.float32(0.0)
    for a, b in zip(x, y):
        acc = np.float32(acc + np.float32(a * b))
    exact = math.fsum(float(a) * float(b) for a, b in zip(x, y))  # fp64 products are exact
    bound = bounds.dot_bound(torch.tensor(x).double(), torch.tensor(y).double(), 2.0 ** -24)
    assert abs(float(acc) - exact) <= float(bound)


def test_matmul_bound_holds_and_options_enlarge_it():
    rng = np.random.default_rng(0)
    a = torch.tensor(rng.normal(0, 1, (9, 70)), dtype=torch.float32)
    b = torch.tensor(rng.normal(0, 1, (70, 5)), dtype=torch.float32)
    exact = torch.tensor([[math.fsum(float(a[i, k]) * float(b[k, j]) for k in range(70))
                           for j in range(5)] for i in range(9)], dtype=torch.float64)
    u = 2.0 ** -24
    plain = bounds.matmul_bound(a, b, u)
    assert bool(((a @ b).double() - exact).abs().le(plain).all())
    assert bool((bounds.matmul_bound(a, b, u, tensor_core=True) > plain).all())
    assert bool((bounds.matmul_bound(a, b, u, u_in=2.0 ** -11) > plain).all())
    with pytest.raises(ValueError):
        bounds.matmul_bound(a, a, u)


def test_output_cast_bound_holds_for_fp16_and_bf16_including_subnormals():
    rng = np.random.default_rng(1)
    y = torch.tensor(rng.normal(0, 1, 5000) * 10.0 ** rng.uniform(-9, 4, 5000))
    for dtype in (torch.float16, torch.bfloat16):
        stored = y.to(dtype)
        err = (stored.double() - y).abs()
        assert bool((err <= bounds.output_cast_bound(stored, dtype)).all())
        assert bool((err > 0).any())


def test_expected_level_grows_like_sqrt_n():
    u = 2.0 ** -24
    assert bounds.expected_level(400, u) == pytest.approx(4 * bounds.expected_level(25, u))


def test_abs_sum_is_at_least_the_exact_sum():
    rng = np.random.default_rng(2)
    x = torch.tensor(rng.normal(0, 1, (3, 1001)) * 1e10)
    exact = torch.tensor([math.fsum(abs(v) for v in row) for row in x.tolist()],
                         dtype=torch.float64)
    assert bool((bounds.abs_sum(x) >= exact).all())
