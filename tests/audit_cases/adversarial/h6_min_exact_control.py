# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="inf" idempotent=proved separable=refuted|unknown additively_separable=refuted|unknown associative.float32=exact associative.float64=exact commutative.float32=exact idempotent.float32=exact
def f(a, b):
    return min(a, b)


WITNESS = {
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
