# expect: kind=binary commutative=tested associative=refuted
# The sum of the distinct values of a and b, through a closure made by a helper module
# (a set inside): a + b, but a when a = b. Not associative: f(f(1, 1), 2) = 3,
# f(1, f(1, 2)) = 4.
from _helpers_stats import make_dedup_sum

_dedup_sum = make_dedup_sum()


def distinct_sum(a, b):
    return _dedup_sum(a, b)
