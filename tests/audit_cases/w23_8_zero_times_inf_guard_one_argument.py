# expect: kind=binary commutative=refuted associative=proved idempotent=refuted
# The guard of w23_8_zero_times_inf_guarded on b alone: f(1, 0) = 0, but f(0, 1) is
# (0·∞)·1 = NaN. Still associative: both groupings are 0 where c = 0, else NaN where a or
# b is 0, else ±∞ with the sign of abc.
import math


def f(a, b):
    if b == 0:
        return 0.0
    return (a * math.inf) * b
