# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="-inf" idempotent=proved separable=refuted additively_separable=refuted associative.float32=exact
def f(a, b):
    return max(a, b)
