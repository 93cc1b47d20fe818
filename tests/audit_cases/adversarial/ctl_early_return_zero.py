# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# a + b with early returns for the zero operands.
def f(a, b):
    if a == 0:
        return b
    if b == 0:
        return a
    return a + b


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
