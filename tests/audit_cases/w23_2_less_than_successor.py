# expect: kind=binary commutative=proved identity=unknown|refuted
# s < s + 1 for finite s; at −∞ both sides are −∞.
def f(a, b):
    s = min(a, b)
    return max(a, b) if s < s + 1 else max(a, b) - 1
