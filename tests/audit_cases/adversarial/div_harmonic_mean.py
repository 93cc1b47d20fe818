# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# The harmonic mean 2/(1/a + 1/b), unguarded. f(f(1, 2), 4) = 2, f(1, f(2, 4)) = 16/11.
def f(a, b):
    return 2 / (1 / a + 1 / b)


WITNESS = {
    "associative": (1, 2, 4),
    "identity": [(1, 2), ("inf", 2), ("-inf", 2)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
