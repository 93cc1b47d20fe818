# expect: kind=binary associative=proved commutative=proved idempotent=refuted
# Associative, and still wrong: adding M2 without the mean correction is a monoid, but
# its fold is not the variance (the exercise `welford` catches that).
def merge(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    n = na + nb
    return n, (na * ma + nb * mb) / n, m2a + m2b
