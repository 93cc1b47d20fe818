# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# target: f
# a² + b² through a recursive helper.
def power(x, k):
    return 1 if k == 0 else x * power(x, k - 1)


def f(a, b):
    return power(a, 2) + power(b, 2)


WITNESS = {
    "associative": (1, 2, 0),
    "identity": [(0, -1), (1, 0)],
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
