# expect: kind=binary associative=proved commutative=refuted
# Chan et al.'s merge of (count, mean, M2), returning the other state when a count is
# zero. Associative wherever defined, proved path by path (the guards pick the paths;
# each merged count the code divides by is assumed nonzero on the paths that divide,
# and stated). Not commutative: two empty states with different
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
