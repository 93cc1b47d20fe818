# expect: kind=binary commutative=refuted associative=proved|tested|unknown idempotent=proved|tested|unknown additively_separable=proved|tested|unknown
# cosh(b)² − sinh(b)² is 1 over the reals, so f is a: associative and idempotent. At
# b = 129 the 1 lies ~375 bits below cosh(b)²: doubles, and the oracle at 120, 184 and
# 368 bits alike, give f(129, 129) = 0, which is no counterexample to f(a, a) = a.
import math


def f(a, b):
    return a * (math.cosh(b) ** 2 - math.sinh(b) ** 2)
