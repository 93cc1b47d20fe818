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


def tiny_factor(a):
    return a * (1 + 2 ** -60)


def tuple_factor(a):
    w = (1 + 2 ** -60, 2)
    return a * w[0]


def irrational(a):
    return a * 2 ** 0.5


def integer_operators(a):
    return a * (0.1 * (3 << 1)) + a * (0.1 * (7 // 2)) + a * (0.1 * (-7 % 4)) + a * (0.1 * ~-4)


def same_double_two_values(a):
    return a * (1 + 2 ** -60) + a * (1 / 3 * 3)


def test_every_operator_the_compiler_folds_reads_back():
    assert 1 + 2 ** -60 == 1.0  # what the compiler stores
    assert folded_constants(tiny_factor.__code__) == {1.0: 1 + Fraction(1, 2 ** 60)}
    assert folded_constants(tuple_factor.__code__) == {1.0: 1 + Fraction(1, 2 ** 60)}
    got = folded_constants(integer_operators.__code__)
    assert got == {0.6000000000000001: 6 * Fraction(0.1),
                   0.30000000000000004: 3 * Fraction(0.1)}


def test_a_fold_inside_a_tuple_of_constants_is_its_exact_value_in_every_reading():
    exact = make_exact()
    assert exact.rebind(tuple_factor)(Fraction(1)) == 1 + Fraction(1, 2 ** 60)
    ctx = Z3Context()
    x = z3.Real("x")
    s = z3.Solver()
    s.add(evaluate(ctx, lambda: ctx.interp.rebind(tuple_factor)(x)) == x, x != 0)
    assert s.check() == z3.unsat


def test_an_irrational_fold_and_a_double_two_folds_share_are_refused_by_the_prover():
    assert type(folded_constants(irrational.__code__)[2 ** 0.5]).__name__ == "Unreadable"
    with pytest.raises(Unsupported, match="irrational"):
        Z3Context().interp.rebind(irrational)
    # near miss: 1/3 * 3 is exactly 1 and 1 + 2**-60 is not, one slot holds both
    assert folded_constants(same_double_two_values.__code__)[1.0] is None
    with pytest.raises(Unsupported):
        Z3Context().interp.rebind(same_double_two_values)
