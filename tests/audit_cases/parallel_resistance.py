# expect: kind=binary associative=proved commutative=proved identity=unknown idempotent=refuted
# 1/(1/a + 1/b) written as a product over a sum: associative wherever defined. Its
# identity is ∞ as a limit, but f(∞, a) = ∞·a/∞ is undefined (NaN), which is no
# counterexample either: the honest answer is unknown.
def parallel(a, b):
    return a * b / (a + b)
