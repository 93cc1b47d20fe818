# expect: kind=binary associative=proved commutative=proved identity=refuted idempotent=refuted
# 1/(1/a + 1/b) written as a product over a sum: associative wherever defined. Its
# identity would be ∞, but f(∞, a) evaluates to nan, so no element works as written.
def parallel(a, b):
    return a * b / (a + b)
