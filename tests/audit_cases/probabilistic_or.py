# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted
def either(p, q):
    return p + q - p * q
