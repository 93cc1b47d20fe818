# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a·b/(a + b), 0 where a + b = 0. Associative wherever a + b ≠ 0 on every call, but the
# guarded branch is part of the function: f(f(1, −1), 2) = 0, f(1, f(−1, 2)) = 2.
# No identity: e·a/(e + a) = a forces a = 0; f(∞, 1) = ∞/∞ is NaN.
def f(a, b):
    s = a + b
    return a * b / s if s != 0 else 0.0


WITNESS = {
    "associative": (1, -1, 2),
    "identity": [(0, 1), (1, 1), ("inf", 1), ("-inf", 1)],
    "idempotent": (2,),
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
