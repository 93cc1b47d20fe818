# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|tested|unknown idempotent=refuted|unknown
# −b where a is 1e-300, a + b elsewhere: f(1e-300, 1) = −1, f(1, 1e-300) = 1 + 1e-300.
# The identity 0 fails only by 1e-300 (f(1e-300, 0) = 0): a gap no relative tolerance
# sees, so tested is no lie there, but proved would be.
def f(a, b):
    return -b if a == 1e-300 else a + b


WITNESS = {
    "associative": (1, 1e-300, 1),
    "commutative": (1e-300, 1),
    "identity": [(0, 1e-300), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
}
