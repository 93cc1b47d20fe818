# expect: kind=binary associative=proved commutative=proved identity=proved|tested|unknown idempotent=refuted|unknown
# state: 3
# Chan's merge of (n, mean, M2), the correction written as n·(mean − new)² per side
# (na·nb²δ²/n² + nb·na²δ²/n² = na·nb·δ²/n). Correct: in power-sum coordinates
# (n, n·mean, M2 + n·mean²) it is addition, wherever n ≠ 0.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    n = na + nb
    mean = (na * ma + nb * mb) / n
    return n, mean, qa + qb + na * (ma - mean) ** 2 + nb * (mb - mean) ** 2


WITNESS = {
    "idempotent": ((1, 0, 0),),
}
