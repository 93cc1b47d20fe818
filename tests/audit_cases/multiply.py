# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=1 idempotent=refuted separable=proved additively_separable=refuted
def f(a, b):
    return a * b
