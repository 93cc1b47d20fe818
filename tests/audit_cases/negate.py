# expect: kind=unary monotone=refuted additive=proved exponential=refuted idempotent=refuted
def f(x):
    return -x
