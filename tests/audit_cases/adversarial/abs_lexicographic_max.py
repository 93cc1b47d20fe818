# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown idempotent=proved|tested|unknown
# state: 2
# The lexicographic maximum by Python tuple comparison (equality of components first).
def f(a, b):
    return a if (a[0], a[1]) >= (b[0], b[1]) else b
