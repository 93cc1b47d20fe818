# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted separable=refuted additively_separable=proved
def f(a, b):
    return a + b
