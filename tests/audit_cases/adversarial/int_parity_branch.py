# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# a + b when the sum is even, a − b otherwise.
def f(a, b):
    return a + b if (a + b) % 2 == 0 else a - b


WITNESS = {
    "associative": (-2, -2, -1),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 0), (2, 1)],
    "idempotent": ("1/2",),
}
