# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# a·∞ is NaN at a = 0, and Python's max keeps its first argument unless the second is
# greater: max(0·∞, ∞) = max(nan, inf) is nan, but max(∞, nan) is inf.
import math


def f(a, b):
    return max(a * math.inf, b * math.inf)
