# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# (a² − b²)/(a − b) = a + b where a ≠ b; a where a = b. Assuming a − b ≠ 0 everywhere
# makes it a + b (associative) and leaves idempotence with an empty domain; really
# f(f(1, 1), 2) = 3 and f(1, f(1, 2)) = 4, and f(a, a) = a holds.
# 0 is an identity: f(0, a) = a for a ≠ 0, and f(0, 0) = 0.
def f(a, b):
    if abs(a - b) > 0:
        return (a * a - b * b) / (a - b)
    return a


WITNESS = {
    "associative": (1, 1, 2),
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
