# expect: kind=binary commutative=unknown|tested
# The literal 0.30000000000000004 and the fold of 0.1 * 3 share one constant slot; over ℝ
# they differ (3 · 0.1 is not that double), so no reading may treat them as one.
def f(a, b):
    return a * 0.30000000000000004 + b * (0.1 * 3)
