# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
# a/b, falling back to b/a, then 0: every branch guarded. f(x, y) = x·h(y) with
# h(y) = 1/y, h(0) = 0, so it is separable.
def f(a, b):
    if b != 0:
        return a / b
    if a != 0:
        return b / a
    return 0


WITNESS = {
    "associative": (-2, -2, -2),
    "commutative": (1, 2),
    "identity": [(1, 2), (0, 1), ("inf", 1), ("-inf", 1)],
    "idempotent": (2,),
    "additively_separable": (1, 2, 1, 2),
}
