# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# a·b/b is a where b ≠ 0; the guarded branch gives a + 1. With b ≠ 0 assumed on every
# call f is the left projection, which is idempotent and associative; the real f is not:
# f(0, 0) = 1, and f(f(0, 0), 0) = 2 against f(0, f(0, 0)) = 0.
# f(x, y) = x + [y = 0] is a sum of a function of x and one of y.
def f(a, b):
    return a * b / b if b != 0 else a + 1


WITNESS = {
    "associative": (0, 0, 0),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2), ("-inf", 1), ("inf", 1)],
    "idempotent": (0,),
    "separable": (1, 2, 0, 1),
}
