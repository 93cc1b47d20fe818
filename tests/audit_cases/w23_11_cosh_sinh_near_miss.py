# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# f is 2a over the reals (cosh² − sinh² = 1): f(1, 1) = 2 and f(f(1, 0), 0) = 4 against
# f(1, f(0, 0)) = 2 are real differences, which the deeper confirmation keeps.
import math


def f(a, b):
    return 2 * a * (math.cosh(b) ** 2 - math.sinh(b) ** 2)
