# expect: kind=binary associative=proved|tested commutative=proved|tested
# (count, mean) merge with the counts declared positive by annotation: over all reals
# a negative count makes n = 0 reachable and the law is refuted, useless to the user.
def f(na: "positive", ma, nb: "positive", mb):  # noqa: F821 (domain names)
    n = na + nb
    return n, ma + (mb - ma) * nb / n
