# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=["-inf","-inf"] idempotent=refuted|unknown
# state: 2
# Top-2 merge with min written as a + b − max(a, b). At the identity (−∞, −∞) and a
# real state the arithmetic stays finite: −∞ + x − x = −∞.
def merge(a, b):
    hi = max(a[0], b[0])
    lo = a[0] + b[0] - hi
    return hi, max(lo, max(a[1], b[1]))


WITNESS = {
    "idempotent": ((2, 1),),
}
