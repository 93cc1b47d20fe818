# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# An assert is a precondition: the function is only called where it holds.
def f(a, b):
    assert a > 0 and b > 0
    return a * b / (a + b)
