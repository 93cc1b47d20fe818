# expect: kind=binary commutative=refuted associative=refuted
# math.comb on ints: C(a, b) ≠ C(b, a) (C(2, 1) = 2, C(1, 2) = 0).
import math


def f(a: int, b: int):
    return math.comb(a, b)
