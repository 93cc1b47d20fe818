# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# 2a where a = b, a + b elsewhere: a + b.
def f(a, b):
    return 2 * a if a == b else a + b


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
