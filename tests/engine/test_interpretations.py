"""One source, many interpretations: the same combine under z3, mpmath, torch, numpy."""
import math

import mpmath
import numpy as np
import pytest
import torch
import z3

from laws.associativity import combines
from verify.engine.arraywords import make_numpy, make_torch
from verify.engine.interp import unwrap
from verify.engine.mpwords import make_mpmath
from verify.engine.z3interp import Z3Context, evaluate


def test_unwrap_gives_the_plain_function_of_a_jit_combine():
    fn = unwrap(combines.online_softmax)
    assert fn.__name__ == "online_softmax" and callable(fn)
    assert not hasattr(fn, "fn")


def test_mpmath_runs_the_combine_at_high_precision():
    f = make_mpmath().rebind(combines.online_softmax)
    with mpmath.workprec(200):
        m, s = f(mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(3), mpmath.mpf(2))
        assert m == 3
        assert abs(s - (mpmath.exp(-2) + 2)) < mpmath.mpf(2) ** -190


def _lift(x):
    return (1.0, x)


def _weighted(x):
    a, b = _lift(x), _lift(x)
    return a[1] * (a[0] / (a[0] + b[0] + 1.0))   # counts from literals, combined at run time


def test_float_literals_become_exact_in_mpmath():
    with mpmath.workprec(200):
        got = make_mpmath().rebind(_weighted)(mpmath.mpf(3))
    assert abs(got - 1) < mpmath.mpf(2) ** -190  # in doubles 1.0/3.0 is off by 2⁻⁵⁴


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_torch_keeps_the_format(dtype):
    f = make_torch().rebind(combines.online_softmax)
    m, s = f(torch.tensor([1.0], dtype=dtype), torch.tensor([1.0], dtype=dtype),
             torch.tensor([3.0], dtype=dtype), torch.tensor([2.0], dtype=dtype))
    assert m.dtype == dtype and s.dtype == dtype
    assert float(s) == pytest.approx(math.exp(-2) + 2, rel=2 * 2.0 ** -7)


def test_numpy_float32():
    f = make_numpy().rebind(combines.welford)
    a = [np.float32(v) for v in (2, 1, 0.5)]
    b = [np.float32(v) for v in (2, 3, 0.5)]
    n, mean, m2 = f(*a, *b)
    assert mean.dtype == np.float32 and float(mean) == 2.0 and float(m2) == 5.0


def test_fully_masked_state_stays_finite_in_floats():
    f = make_torch().rebind(combines.online_softmax)
    ninf = torch.tensor([-math.inf])
    m, s = f(ninf, torch.tensor([0.0]), ninf, torch.tensor([0.0]))
    assert float(m) == -math.inf and float(s) == 0.0


def test_z3_max_becomes_if_and_branches_fork():
    ctx = Z3Context()
    a, b = z3.Reals("a b")

    def branchy(x, y):
        if x > y:
            return x
        return y
    term = evaluate(ctx, lambda: ctx.interp.rebind(branchy)(a, b))
    s = z3.Solver()
    s.add(term != z3.If(a >= b, a, b))
    assert s.check() == z3.unsat
    assert ctx.max_paths == 2


def test_z3_equality_branch_is_forked_not_structural():
    # z3's own bool() answers structural equality for `a == b`; a fork must be taken.
    ctx = Z3Context()
    a, b = z3.Reals("a b")

    def pick(x, y):
        return 1 if x == y else 0
    term = evaluate(ctx, lambda: ctx.interp.rebind(pick)(a, b))
    s = z3.Solver()
    s.add(a == b, term != 1)
    assert s.check() == z3.unsat


def test_rebinding_never_confuses_two_functions():
    # Freed functions' ids are reused; a cache keyed by id alone would hand back the
    # rebound copy of a dead function.
    interp = make_mpmath()
    for k in range(300):
        f = eval(f"lambda x: x + {k}")
        assert interp.rebind(f)(mpmath.mpf(0)) == k
        del f
