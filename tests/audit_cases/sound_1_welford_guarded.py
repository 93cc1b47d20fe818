# expect: kind=binary associative=proved|tested commutative=refuted
# A merge that returns the other state when one count is 0 ignores that state's mean and
# M2, so it is not commutative at (0, 1, −1); the division by na + nb is reported.
def merge(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, m2a + m2b + d * d * na * nb / n
