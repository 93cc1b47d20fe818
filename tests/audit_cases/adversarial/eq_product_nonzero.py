# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=1 idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
def f(a, b):
    return a * b if a * b != 0 else 0


WITNESS = {
    "idempotent": (2,),
    "additively_separable": (1, 2, 1, 2),
}
