# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
# b where a ≠ 0 (a·b/a), 0 where a = 0: f(a, b) = [a ≠ 0]·b. Assuming a ≠ 0 makes it
# the right projection, additively separable; really f(0, 1) + f(1, 2) = 2 but
# f(0, 2) + f(1, 1) = 1. [a ≠ 0][b ≠ 0]·c on both sides: associative.
def f(a, b):
    if a == 0:
        return 0
    return a * b / a


WITNESS = {
    "commutative": (1, 2),
    "identity": [(1, 2), (0, 1), ("inf", 1), ("-inf", 1)],
    "additively_separable": (0, 1, 1, 2),
}
