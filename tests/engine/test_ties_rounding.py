"""A tie of margin 0 after a value was rounded onto another decides nothing; one
without such a rounding is a real tie (verify.engine.ties)."""
import mpmath

from verify.engine import ties
from verify.engine.mpwords import make_mpmath

MP = make_mpmath()


def _logs(fn, *args):
    out = []
    for prec in (124, 188):
        with mpmath.workprec(prec), ties.recording() as log:
            fn(*[mpmath.mpf(a) for a in args])
        out.append(log)
    return out


def test_saturated_tanh_tie_is_undecided():
    import math

    def f(a):
        return 1 if math.tanh(a) > -1 else 0
    assert not ties.agree(*_logs(MP.rebind(f), -1424))
    assert ties.agree(*_logs(MP.rebind(f), -3))


def test_absorbed_sum_tie_is_undecided():
    import math

    def f(a):
        return 1 if 1 / (1 + math.exp(-a)) < 1 else 0
    assert not ties.agree(*_logs(MP.rebind(f), 10000))
    assert ties.agree(*_logs(MP.rebind(f), 3))


def test_a_tie_of_the_inputs_stays_a_tie():
    def f(a, b):
        return a if (a + 1) - 1 >= b else b
    assert ties.agree(*_logs(f, 2, 2))
    assert ties.agree(*_logs(f, 0.5, 0.5))


def test_saturated_expm1_tie_is_undecided():
    import math

    def f(a):
        return 1 if math.expm1(a) > -1 else 0
    assert not ties.agree(*_logs(MP.rebind(f), -3000))
    assert ties.agree(*_logs(MP.rebind(f), -3))
