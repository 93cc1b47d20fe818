# expect: kind=binary associative=refuted commutative=refuted idempotent=proved separable=refuted
# A branch on math.isclose: f(1, 1 + 1e-10) = 1 but f(1 + 1e-10, 1) = 1 + 1e-10. Random
# cases almost never fall within 10⁻⁹ of each other, so the searcher alone found nothing
# (commutative "tested"); math.isclose now has a z3 reading, and z3's model, which lies on
# the test's boundary (|b − a| = 10⁻⁹·|b| exactly, decided by rounding), is moved off it
# before it is replayed.
import math


def f(a, b):
    return a if math.isclose(a, b) else min(a, b)
