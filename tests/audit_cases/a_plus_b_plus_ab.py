# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted
# (1 + a)(1 + b) − 1: multiplication shifted by one.
def f(a, b):
    return a + b + a * b
