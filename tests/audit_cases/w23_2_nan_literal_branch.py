# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# NaN below the diagonal a + b < 0, the sum elsewhere: symmetric, NaN on both sides
# together. Not associative: f(f(1, −2), 5) = f(nan, 5) = nan but f(1, f(−2, 5)) = 4.
def f(a, b):
    if a + b < 0:
        return float("nan")
    return a + b
