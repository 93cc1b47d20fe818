# expect: kind=binary commutative=proved|tested|unknown associative=proved|tested|unknown idempotent=proved|tested|unknown
# tanh(a) > −1 for every real a, so f is max(a, b). In doubles tanh(−1424.0) is −1.0, and
# in mpmath it is exactly −1 at every precision below ~4110 bits: f(−1424, 0) = −1424
# against f(0, −1424) = 0 is a tie the rounding made, no counterexample.
import math


def f(a, b):
    return max(a, b) if math.tanh(a) > -1 else a
