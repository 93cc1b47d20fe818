# expect: kind=binary commutative=refuted
# The log is guarded; the else branch breaks symmetry: f(0, 1) = 0, f(1, 0) = 1.
import math


def f(a, b):
    return math.log(math.exp(a * b)) if a * b > 0 else a
