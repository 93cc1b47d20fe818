"""Constants folded by the compiler read back as the exact value of their source."""
from fractions import Fraction

import mpmath
import pytest
import z3

from verify.engine.folding import folded_constants
from verify.engine.interp import Unsupported
from verify.engine.mpwords import make_exact, make_mpmath
from verify.engine.z3interp import Z3Context, evaluate

C = 0.1


def folded(x):
    return x * (0.1 * 3)


def computed(x):
    return x * (C * 3)


def same_test():
    return C * 3 == 0.1 * 3


def ambiguous(x):
    return x * 0.30000000000000004 + x * (0.1 * 3)


def test_the_fold_maps_back_to_its_exact_value():
    assert 0.1 * 3 == 0.30000000000000004  # what the compiler stores
    assert folded_constants(folded.__code__) == {0.30000000000000004: 3 * Fraction(0.1)}
    assert folded_constants(computed.__code__) == {}


def test_exact_reading_agrees_for_folded_and_computed():
    exact = make_exact()
    assert exact.rebind(folded)(Fraction(1)) == exact.rebind(computed)(Fraction(1)) \
        == 3 * Fraction(0.1)
    assert exact.rebind(same_test)() is True


def test_mpmath_reading_agrees_for_folded_and_computed():
    mp = make_mpmath()
    with mpmath.workprec(300):
        assert mp.rebind(folded)(mpmath.mpf(1)) == mp.rebind(computed)(mpmath.mpf(1))
        assert mp.rebind(same_test)()


def test_z3_proves_folded_equals_computed():
    ctx = Z3Context()
    x = z3.Real("x")
    a = evaluate(ctx, lambda: ctx.interp.rebind(folded)(x))
    b = evaluate(ctx, lambda: ctx.interp.rebind(computed)(x))
    s = z3.Solver()
    s.add(a != b)
    assert s.check() == z3.unsat


def test_a_double_both_written_and_folded_is_refused_by_the_prover():
    # near miss: the slot holds both 0.30000000000000004 and the fold of 0.1 * 3
    assert folded_constants(ambiguous.__code__) == {0.30000000000000004: None}
    with pytest.raises(Unsupported):
        Z3Context().interp.rebind(ambiguous)
