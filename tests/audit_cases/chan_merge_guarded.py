# expect: kind=binary associative=proved|tested|unknown commutative=refuted
# Chan et al.'s merge of (count, mean, M2), returning the other state when a count is
# zero. The target is associative=proved: the guard makes every division safe, which
# needs path-sensitive side conditions in the prover; until then tested or unknown is
# the honest answer, never refuted. Not commutative: two empty states with different
# means, a = (0, 1, 0) and b = (0, 2, 0), give merge(a, b) = b but merge(b, a) = a.
def chan_merge(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, m2a + m2b + d * d * na * nb / n
