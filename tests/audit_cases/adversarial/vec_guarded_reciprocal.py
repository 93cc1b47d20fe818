# expect: kind=unary monotone=refuted|unknown idempotent=refuted|unknown additive=refuted|unknown exponential=refuted|unknown
def f(x):
    return 1 / x if x != 0 else 0


WITNESS = {
    "monotone": (1, 2),
    "idempotent": (2,),
    "additive": (1, 1),
    "exponential": (1, 1),
}
