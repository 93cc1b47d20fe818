# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown
# Chan et al.'s (count, mean, M2) merge with natural counts (annotation); two empty
# sides keep their M2 sum, so the merge stays associative.
def f(na: "natural", ma, qa, nb: "natural", mb, qb):  # noqa: F821 (domain names)
    n = na + nb
    if n == 0:
        return 0, 0.0, qa + qb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n
