# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=1 idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
# A dict comprehension at module level, keyed by constants.
SQUARES = {k: k * k for k in range(4)}


def f(a, b):
    return a * b


WITNESS = {
    "idempotent": (2,),
    "additively_separable": (1, 2, 1, 2),
}
