# expect: kind=binary idempotent=proved idempotent.float32=inexact
# Over ℝ a + (ab − ab) = a; in float32 a = 2⁷⁰ overflows ab to ∞ and ∞ − ∞ = NaN, and
# Python's max(NaN, b) is NaN.
def f(a, b):
    return max(a + (a * b - a * b), b)
