# expect: kind=binary commutative=proved associative=refuted
# a * 0.1 * 3 rounds twice in floats while b * (0.1 * 3) uses the folded double
# 0.30000000000000004; over ℝ both coefficients are 3 · 0.1 exactly, so f is commutative.
def f(a, b):
    return a * 0.1 * 3 + b * (0.1 * 3)
