# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a + b when a and b are on the same side of 0 (0 counting as negative), a − b
# otherwise: f(a, b) = σ(a)(|a| + |b|) with σ(a) = 1 if a > 0 else −1, which is
# associative though it does not look it. 0 is only a right identity.
def f(a, b):
    if (a > 0) == (b > 0):
        return a + b
    return a - b


WITNESS = {
    "commutative": (1, -1),
    "identity": [(0, 1), (1, 0), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
    "separable": (1, 2, 0, 1),
    "additively_separable": (1, -1, 0, 1),
}
