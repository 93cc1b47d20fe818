# expect: kind=binary commutative=proved|tested|unknown associative=proved|tested|unknown idempotent=proved|tested|unknown
# 1/(1 + e^(−a)) < 1 for every real a, so f is min(a, b). In doubles, and in mpmath at any
# fixed precision, 1 + e^(−a) is 1 for large a (the term is rounded away whole): f(40, 0)
# = 40 against f(0, 40) = 0 in Python, no counterexample over the reals.
import math


def f(a, b):
    return min(a, b) if 1 / (1 + math.exp(-a)) < 1 else a
