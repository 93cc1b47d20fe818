"""The numerics shared by the kernels and the certifier (impls/numerics.py): constants,
γₙ, upward rounding, and each bound holding for real float computations (and being
violated when the computation is wrong); no kernel keeps a copy of its own."""
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import torch

from impls import numerics


def test_unit_roundoffs_and_aliases():
    assert numerics.unit_roundoff("float64") == 2.0 ** -53
    assert numerics.unit_roundoff(torch.float32) == 2.0 ** -24
    assert numerics.unit_roundoff("tf32") == 2.0 ** -11
    assert numerics.unit_roundoff("fp16") == 2.0 ** -11
    assert numerics.unit_roundoff("bf16") == 2.0 ** -8
    with pytest.raises(ValueError):
        numerics.unit_roundoff("float8")


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 10 ** 6])
def test_gamma_is_rounded_upward(n):
    u = 2.0 ** -24
    exact = Fraction(n) * Fraction(u) / (1 - Fraction(n) * Fraction(u))
    assert Fraction(numerics.gamma(n, u)) > exact


def test_gamma_without_a_bound_and_bad_n():
    assert numerics.gamma(2 ** 11, 2.0 ** -11) == math.inf
    assert numerics.gamma(0, 2.0 ** -24) == 0.0
    with pytest.raises(ValueError):
        numerics.gamma(-1, 2.0 ** -24)


def test_round_up_moves_strictly_up_and_keeps_exact_zero():
    assert numerics.round_up(1.0) > 1.0
    assert numerics.round_up(0.0) == 0.0
    t = torch.tensor([1e-300, 3.0, 1e300], dtype=torch.float64)
    assert bool((numerics.round_up(t) > t).all())
    assert float(numerics.round_up(torch.zeros(1, dtype=torch.float64))[0]) == 0.0


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
    u = numerics.unit_roundoff("float32")
    for x in _data(seed, 777):
        exact = math.fsum(x)
        t = torch.tensor(x).unsqueeze(0)
        assert abs(_fp32_left_sum(x) - exact) <= float(numerics.recursive_sum_bound(t, u)[0])
        assert abs(_fp32_pairwise_sum(x) - exact) <= float(numerics.pairwise_sum_bound(t, u)[0])


def test_pairwise_bound_is_smaller_than_recursive():
    t = torch.rand(1, 4096, dtype=torch.float64)
    u = 2.0 ** -24
    assert float(numerics.pairwise_sum_bound(t, u)[0]) < float(numerics.recursive_sum_bound(t, u)[0]) / 100


def test_sum_bound_catches_a_dropped_term():
    x = np.ones(500)
    t = torch.tensor(x).unsqueeze(0)
    wrong = _fp32_left_sum(x[:-1])
    assert abs(wrong - 500.0) > float(numerics.recursive_sum_bound(t, 2.0 ** -24)[0])


@pytest.mark.parametrize("seed", range(3))
def test_dot_bound_holds_for_an_fp32_dot(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, 513).astype(np.float32)
    y = (rng.normal(0, 1, 513) * 10.0 ** rng.uniform(-2, 2, 513)).astype(np.float32)
    acc = np.float32(0.0)
    for a, b in zip(x, y):
        acc = np.float32(acc + np.float32(a * b))
    exact = math.fsum(float(a) * float(b) for a, b in zip(x, y))  # fp64 products are exact
    bound = numerics.dot_bound(torch.tensor(x).double(), torch.tensor(y).double(), 2.0 ** -24)
    assert abs(float(acc) - exact) <= float(bound)


def test_matmul_bound_holds_and_options_enlarge_it():
    rng = np.random.default_rng(0)
    a = torch.tensor(rng.normal(0, 1, (9, 70)), dtype=torch.float32)
    b = torch.tensor(rng.normal(0, 1, (70, 5)), dtype=torch.float32)
    exact = torch.tensor([[math.fsum(float(a[i, k]) * float(b[k, j]) for k in range(70))
                           for j in range(5)] for i in range(9)], dtype=torch.float64)
    u = 2.0 ** -24
    plain = numerics.matmul_bound(a, b, u)
    assert bool(((a @ b).double() - exact).abs().le(plain).all())
    assert bool((numerics.matmul_bound(a, b, u, tensor_core=True) > plain).all())
    assert bool((numerics.matmul_bound(a, b, u, u_in=2.0 ** -11) > plain).all())
    with pytest.raises(ValueError):
        numerics.matmul_bound(a, a, u)


def test_output_cast_bound_holds_for_fp16_and_bf16_including_subnormals():
    rng = np.random.default_rng(1)
    y = torch.tensor(rng.normal(0, 1, 5000) * 10.0 ** rng.uniform(-9, 4, 5000))
    for dtype in (torch.float16, torch.bfloat16):
        stored = y.to(dtype)
        err = (stored.double() - y).abs()
        assert bool((err <= numerics.output_cast_bound(stored, dtype)).all())
        assert bool((err > 0).any())


def test_expected_level_grows_like_sqrt_n():
    u = 2.0 ** -24
    assert numerics.expected_level(400, u) == pytest.approx(4 * numerics.expected_level(25, u))


def test_abs_sum_is_at_least_the_exact_sum():
    rng = np.random.default_rng(2)
    x = torch.tensor(rng.normal(0, 1, (3, 1001)) * 1e10)
    exact = torch.tensor([math.fsum(abs(v) for v in row) for row in x.tolist()],
                         dtype=torch.float64)
    assert bool((numerics.abs_sum(x) >= exact).all())


def test_gamma_of_a_tensor_of_counts_matches_the_scalar_one():
    counts = torch.tensor([0, 1, 5, 2 ** 24, 2 ** 25])
    got = numerics.gamma(counts, 2.0 ** -24)
    assert [float(g) for g in got] == [numerics.gamma(int(c), 2.0 ** -24) for c in counts]
    assert float(got[0]) == 0.0 and math.isinf(float(got[-1]))


def test_round_up_with_named_roundings_covers_their_gamma():
    x = torch.tensor([1.0, 0.0], dtype=torch.float64)
    got = numerics.round_up(x, roundings=1000)
    assert float(got[0]) >= 1.0 + 1000 * 2.0 ** -53 + 2.0 ** -30
    assert float(got[1]) == 0.0
    assert numerics.round_up(1.0, roundings=1000) == float(got[0])


def test_stored_output_error_is_zero_only_without_a_cast():
    y = torch.tensor([1.0, float("nan"), 0.0])
    assert bool((numerics.stored_output_error(y, "float32") == 0).all())
    fp16 = numerics.stored_output_error(y, "float16")
    assert fp16.tolist() == [2.0 ** -11 + 2.0 ** -25, 2.0 ** -25, 2.0 ** -25]


def test_ulp_error_states_elementary_functions_in_units_of_u():
    assert numerics.ulp_error(4, "float32") == 2.0 ** -21
    assert numerics.ulp_error(4, "float64") == 2.0 ** -50


_OWN_COPIES = re.compile(r"^(def _?(round_up|gamma|ell|cast_bound)\(|(U_OUT|ETA_OUT|OUT_ROUNDING|"
                         r"SLACK|UNIT_ROUNDOFF|HALF_SUBNORMAL|U32|U64) = )", re.M)


def test_no_kernel_module_keeps_its_own_copy_of_the_numerics():
    impls_dir = Path(numerics.__file__).parent
    copies = {p.name: _OWN_COPIES.findall(p.read_text(encoding="utf-8"))
              for p in impls_dir.glob("*.py") if p.name != "numerics.py"}
    assert {k: v for k, v in copies.items() if v} == {}
