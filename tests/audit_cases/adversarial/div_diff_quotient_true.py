# expect: kind=binary associative=proved commutative=proved identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown additively_separable=proved|tested|unknown
# (a² − b²)/(a − b) where a ≠ b, 2a where a = b: a + b everywhere, a guarded division
# that is genuinely associative.
def f(a, b):
    if a != b:
        return (a * a - b * b) / (a - b)
    return 2 * a


WITNESS = {
    "idempotent": (1,),
}
