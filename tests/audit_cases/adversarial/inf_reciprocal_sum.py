# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown idempotent=refuted|unknown
# 1/(1/a + 1/b), unguarded: +∞ and −∞ are both identities (1/±∞ = 0), a finite
# stand-in for either is not.
def f(a, b):
    return 1 / (1 / a + 1 / b)


WITNESS = {
    "idempotent": (2,),
}
