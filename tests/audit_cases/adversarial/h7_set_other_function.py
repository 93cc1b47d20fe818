# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# target: f
# Another function of the module builds a set; f does not call it.
def labels(xs):
    return sorted(set(xs))


def f(a, b):
    return a + b


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
