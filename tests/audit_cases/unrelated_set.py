# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0
# A set literal elsewhere in the file and an unrelated lambda that hashes do not switch
# the prover off for the audited function, which reaches neither.
from _helpers_stats import plain_sum

SEEN = {1, 2, 3}
count_distinct = lambda xs: len(set(xs))  # noqa: E731


def add(a, b):
    return plain_sum(a, b)
