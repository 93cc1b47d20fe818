# expect: kind=unary monotone=proved additive=refuted exponential=refuted idempotent=proved
def relu(x):
    return max(x, 0.0)
