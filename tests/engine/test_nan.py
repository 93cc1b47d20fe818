"""NaN in the z3 interpretation: where each value is NaN, and tests with IEEE meaning."""
import math

import numpy as np
import pytest
import z3

from verify.engine.interp import Unsupported
from verify.engine.z3interp import Z3Context, evaluate


def _run(fn, *args):
    ctx = Z3Context()
    return ctx, evaluate(ctx, lambda: ctx.interp.rebind(fn)(*args))


def _valid(claim) -> bool:
    s = z3.Solver()
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


a, b = z3.Reals("a b")


def _self_equal(x, y):
    r = np.sqrt(x - y)
    return 1.0 if r == r else 0.0


def _self_unequal(x, y):
    r = np.sqrt(x - y)
    return 1.0 if r != r else 0.0


def _isnan(x, y):
    r = np.sqrt(x - y)
    return 1.0 if math.isnan(r) else 0.0


@pytest.mark.parametrize("fn, nan_gives", [(_self_equal, 0), (_self_unequal, 1),
                                           (_isnan, 1)])
def test_a_self_test_forks_on_the_nan_condition(fn, nan_gives):
    ctx, term = _run(fn, a, b)
    assert ctx.max_paths == 2
    assert _valid(term == z3.If(a - b < 0, nan_gives, 1 - nan_gives))


def test_a_root_of_python_math_raises_instead_of_being_nan():
    def f(x, y):
        r = math.sqrt(x - y)
        return 1.0 if r == r else 0.0
    ctx, term = _run(f, a, b)
    assert ctx.max_paths == 1 and _valid(term == 1)          # decided: r is a number
    assert [z3.simplify(c).eq(z3.simplify(a - b >= 0)) for _, c, _ in ctx.raising] == [True]


def test_a_nan_literal_is_nan_everywhere_and_equals_nothing():
    def f(x):
        n = float("nan")
        return x if n == n or x == n else n + x
    ctx, term = _run(f, a)
    assert ctx.max_paths == 1                                 # both tests are False
    assert _valid(ctx.nan.condition(term))


def test_nan_propagates_through_arithmetic_and_survives_simplification():
    def f(x):
        r = np.sqrt(x)
        return np.exp(r - r) + 2 * r
    ctx, term = _run(f, a)
    assert _valid(ctx.nan.condition(term) == (a < 0))


def test_a_where_discards_the_nan_lane():
    def f(x):
        return np.where(x >= 0, np.sqrt(x), -np.sqrt(-x))
    ctx, term = _run(f, a)
    assert _valid(z3.Not(ctx.nan.condition(term)))


# (the word with the root first, then second; where each result is NaN)
_WORDS = {
    "max": (lambda x, y: max(np.sqrt(x), y), lambda x, y: max(y, np.sqrt(x)),
            "a < 0", "false"),                       # max(nan, b) is nan, max(b, nan) b
    "min": (lambda x, y: min(np.sqrt(x), y), lambda x, y: min(y, np.sqrt(x)),
            "a < 0", "false"),
    "np.maximum": (lambda x, y: np.maximum(np.sqrt(x), y),
                   lambda x, y: np.maximum(y, np.sqrt(x)), "a < 0", "a < 0"),
    "np.minimum": (lambda x, y: np.minimum(np.sqrt(x), y),
                   lambda x, y: np.minimum(y, np.sqrt(x)), "a < 0", "a < 0"),
    "np.fmax": (lambda x, y: np.fmax(np.sqrt(x), y),
                lambda x, y: np.fmax(y, np.sqrt(x)), "false", "false"),
}


@pytest.mark.parametrize("word", sorted(_WORDS))
def test_each_max_word_keeps_its_nan_rule(word):
    first, second, left, right = _WORDS[word]
    conds = {"a < 0": a < 0, "false": z3.BoolVal(False)}
    for fn, want in ((first, left), (second, right)):
        ctx, term = _run(fn, a, b)
        assert _valid(ctx.nan.condition(term) == conds[want]), (word, want)


def test_python_max_with_nan_picks_by_argument_order():
    ctx, term = _run(lambda x, y: max(y, np.sqrt(x)), a, b)
    s = z3.Solver()
    s.add(a < 0, term != b)                          # max(b, nan) is b
    assert s.check() == z3.unsat


def test_a_jit_zero_over_zero_is_nan():
    import triton
    import triton.language as tl  # noqa: F401  (the jit function's vocabulary)

    @triton.jit
    def f(x, y):
        return (x * y) / (x * y)
    ctx, term = _run(f, a, b)
    assert _valid(ctx.nan.condition(term) == (a * b == 0))


def test_floor_of_a_value_that_may_be_nan_is_refused():
    with pytest.raises(Unsupported, match="may be NaN"):
        _run(lambda x: math.floor(np.sqrt(x)), a)


def test_isnan_of_a_stand_in_for_infinity_is_its_nan_region():
    # x − ∞ is −∞, never NaN; x·∞ is NaN at x = 0 only (0·∞)
    ctx, term = _run(lambda x: 1.0 if math.isnan(x - math.inf) else 0.0, a)
    assert term == 0.0
    ctx, term = _run(lambda x: 1.0 if math.isnan(x * math.inf) else 0.0, a)
    assert ctx.max_paths == 2 and _valid(term == z3.If(a == 0, 1, 0))


def test_isnan_of_a_log_that_may_be_minus_infinity_is_refused():
    with pytest.raises(Unsupported, match="log of 0"):
        _run(lambda x: 1.0 if math.isnan(np.log(x) - np.log(x)) else 0.0, a)


def test_a_log_test_decided_by_its_form_keeps_its_use():
    # log 0 = −∞ and −∞ − −∞ is NaN: the fork keeps the log, so its use states x ≠ 0
    from verify.engine.definedness import use_conditions

    def f(x):
        r = np.log(x)
        return 1.0 if r - r == 0 else 0.0
    ctx, term = _run(f, a)
    assert ctx.max_paths == 2
    needed = [c for _, c, _ in use_conditions(ctx, [term])]
    assert any(z3.simplify(c).eq(z3.simplify(a != 0)) for c in needed)


def test_without_nan_sources_nothing_changes():
    ctx, term = _run(lambda x, y: max(x, y) if x * y > 0 else x - y, a, b)
    assert not ctx.nan.active() and "NaN conditions" not in ctx.encodings()
    assert z3.is_false(ctx.nan.condition(term))


def test_the_mpmath_reading_gives_nan_for_zero_by_zero_only_inside_jit():
    import mpmath
    import triton
    import triton.language as tl  # noqa: F401
    from verify.engine.mpwords import make_mpmath

    @triton.jit
    def quotient(x, y):
        return x / y

    def plain(x, y):
        return x / y
    mp = make_mpmath()
    zero = mpmath.mpf(0)
    assert mpmath.isnan(mp.rebind(quotient)(zero, zero))
    with pytest.raises(ZeroDivisionError) as raised:    # x/0 is ±∞: still not modelled
        mp.rebind(quotient)(mpmath.mpf(1), zero)
    from verify.decide.jit_raise import raised_in_jit
    assert raised_in_jit(raised.value)                  # through the wrapper, still jit's
    with pytest.raises(ZeroDivisionError):              # Python's own / raises
        mp.rebind(plain)(zero, zero)
