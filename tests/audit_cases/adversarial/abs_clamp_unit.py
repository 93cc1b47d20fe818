# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# min(max(a + b, 0), 1): f(f(1, 1), −1) = 0, f(1, f(1, −1)) = 1.
def f(a, b):
    return min(max(a + b, 0), 1)


WITNESS = {
    "associative": (1, 1, -1),
    "identity": [(0, -1), (1, 0), ("-inf", "1/2"), ("inf", 0)],
    "idempotent": (-1,),
}
