# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# max + min = a + b.
def f(a, b):
    return max(a, b) + min(a, b)


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
