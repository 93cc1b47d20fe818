# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# 0 where a + b = 0, a + b elsewhere: a + b.
def f(a, b):
    if a + b == 0:
        return 0
    return a + b


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
