# expect: kind=binary commutative=proved associative=refuted
# 0.1·a + 0.1·b: commutative, not associative.
def f(a, b):
    return 0.1 * a + 0.1 * b
