# expect: kind=binary associative=proved commutative=proved identity=refuted|unknown idempotent=refuted
# 1/(1/a + 1/b) written as a product over a sum: associative wherever defined. Its
# identity is ∞ as a limit, but f(∞, 0) = ∞·0/∞ is NaN where the identity needs 0: a NaN
# against a number is a failure, so +∞ is no identity (and no real e is).
def parallel(a, b):
    return a * b / (a + b)
