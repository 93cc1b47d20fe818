# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="inf" idempotent=proved
def smaller(a, b):
    if a < b:
        return a
    else:
        return b
