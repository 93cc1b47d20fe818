# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# 0 beyond 1e308 in magnitude, a + b below: reals that large exist (10**309), though no
# double does. f(10**309, 0) = 0, f(0, 10**309) = 10**309.
def f(a, b):
    return 0.0 if abs(a) > 1e308 else a + b


WITNESS = {
    "associative": (1, 10 ** 309, 0),
    "commutative": (10 ** 309, 0),
    "identity": [(0, 10 ** 309), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
}
