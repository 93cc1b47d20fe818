# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=[0,0,0] idempotent=refuted
# Chan et al.'s merge of (count, mean, M2).
def welford(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, m2a + m2b + d * d * na * nb / n
