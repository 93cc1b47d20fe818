# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=proved|tested|unknown
def f(a, b):
    return sorted([a, b])[1]
