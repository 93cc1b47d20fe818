# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=["inf","-inf"] idempotent=proved|tested|unknown
# state: 2
# (min, max) of a chunk.
def merge(a, b):
    return min(a[0], b[0]), max(a[1], b[1])
