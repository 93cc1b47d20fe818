# expect: kind=binary commutative=proved identity=unknown|refuted
# s − s == 0 is true for every finite s and false (NaN) at −∞: f(−∞, 2000) = 4000,
# so −∞ is no identity although max's identity is −∞.
def f(a, b):
    s = min(a, b)
    if s - s == 0:
        return max(a, b)
    return 2 * max(a, b)
