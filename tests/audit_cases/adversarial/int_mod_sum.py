# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# (a + b) % 3 on all reals: the remainder has the sign of the divisor, in [0, 3), and
# reducing an inner sum only drops a multiple of 3, so both groupings are
# (a + b + c) mod 3: associative and commutative. No identity: f(3, 0) = 0 ≠ 3;
# f(1, 1) = 2, so not idempotent.
def f(a, b):
    return (a + b) % 3


WITNESS = {
    "identity": [(0, 3), (1, 3)],
    "idempotent": (1,),
}
