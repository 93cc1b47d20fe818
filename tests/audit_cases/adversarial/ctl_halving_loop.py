# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# Halve a + b until it is within [−1, 1], at most four times.
def f(a, b):
    x = a + b
    n = 0
    while abs(x) > 1 and n < 4:
        x = x / 2
        n += 1
    return x


WITNESS = {
    "associative": (-2, -2, -1),
    "identity": [(0, 4), (1, 0)],
    "idempotent": (2,),
}
