# expect: kind=binary associative=unknown|refuted idempotent=unknown|refuted
# ints and exact rationals carry .denominator, Python floats do not: f(f(1, 2), 3.0) = 5.0
# but f(1, f(2, 3.0)) = 6.0; f(1.0, 1.0) = 2.0.
def f(a, b):
    if hasattr(a, "denominator") and hasattr(b, "denominator"):
        return max(a, b)
    return a + b
