# expect: kind=binary commutative=refuted idempotent=proved separable=proved additively_separable=refuted
# math.copysign over ℝ: |a| with b's sign, b = 0 read as +0 (a real zero has no sign;
# Python's −0.0 is the one place plain Python and ℝ part, so a counterexample through it
# does not replay). f(a, a) = a, and f(x, y) = |x|·sign(y) factors.
import math


def f(a, b):
    return math.copysign(a, b)
