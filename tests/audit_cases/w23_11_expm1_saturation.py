# expect: kind=binary commutative=proved|tested|unknown associative=proved|tested|unknown
# expm1(a) > −1 for every real a, so f is max(a, b). In doubles expm1(−40.0) is −1.0, and
# in mpmath expm1(−3000) is exactly −1 below ~4330 bits: f(−3000, 0) = −3000 against
# f(0, −3000) = 0 is a tie the rounding made, no counterexample.
import math


def f(a, b):
    return max(a, b) if math.expm1(a) > -1 else a
