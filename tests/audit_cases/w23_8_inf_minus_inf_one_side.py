# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# ∞ − ∞ on one branch only: f(a, b) is a + b for a ≤ b and (a + ∞) − ∞ = NaN above,
# so f(1, 0) is NaN while f(0, 1) = 1 (Python's floats give nan there, no exception).
import math


def f(a, b):
    if a > b:
        return (a + math.inf) - math.inf
    return a + b
