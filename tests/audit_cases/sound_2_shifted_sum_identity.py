# expect: kind=binary commutative=proved identity=unknown|refuted
# b − b is 0 over ℝ and NaN at b = ±∞, so no infinite identity.
def f(a, b):
    return max(a, b) + (b - b)
