# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown
# |a| with the sign of b (b = 0 counting as positive): f(f(1, 0), −1) = −1, but
# f(1, f(0, −1)) = f(1, 0) = 1.
def f(a, b):
    return abs(a) if b >= 0 else -abs(a)


WITNESS = {
    "associative": (1, 0, -1),
    "commutative": (1, -2),
    "identity": [(1, -1), (0, 1), ("inf", 1), ("-inf", 1)],
}
