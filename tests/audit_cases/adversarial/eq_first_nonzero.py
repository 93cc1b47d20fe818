# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=proved|tested|unknown identity.element=0 idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# The first nonzero operand: associative, with identity 0.
def f(a, b):
    return b if a == 0 else a


WITNESS = {
    "commutative": (1, 2),
    "separable": (0, 1, 1, 2),
    "additively_separable": (0, 1, 1, 2),
}
