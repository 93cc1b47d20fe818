# expect: kind=binary commutative=proved identity=unknown|refuted
# + min − min cancels over ℝ; at −∞ it is ∞ − ∞ = NaN.
def f(a, b):
    return max(a, b) + min(a, b) - min(a, b)
