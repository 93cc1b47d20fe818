# expect: kind=binary commutative=proved identity=unknown|refuted
# 0 · ∞ is NaN: with e = −∞ the extra term a·0 breaks the identity.
def f(a, b):
    return max(a, b) + a * 0.0 + b * 0.0
