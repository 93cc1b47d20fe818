# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="inf" idempotent=proved|tested|unknown
# −max(−a, −b) = min(a, b).
def f(a, b):
    return -max(-a, -b)
