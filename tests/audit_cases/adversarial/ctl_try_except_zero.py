# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# a·b/b, and a + 1 when that raises (b = 0): f(0, 0) = 1.
def f(a, b):
    try:
        return a * b / b
    except ZeroDivisionError:
        return a + 1


WITNESS = {
    "associative": (0, 0, 0),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2)],
    "idempotent": (0,),
    "separable": (1, 2, 0, 1),
}
