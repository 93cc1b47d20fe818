# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# (a² − b²)/(a − b) with no guard: a + b wherever a ≠ b, undefined on the diagonal. So
# f(a, a) is defined nowhere: nothing to prove or refute (a proof would be vacuous).
def f(a, b):
    return (a * a - b * b) / (a - b)


WITNESS = {
    "separable": (1, 2, 3, 4),
}
