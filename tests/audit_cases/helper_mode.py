# expect: kind=binary associative=tested commutative=refuted idempotent=tested
# The helper (another module) takes statistics.mode of [a, b, a], which is always a:
# the hashing in the helper keeps the prover off, so the verdicts are the searcher's.
from _helpers_stats import most_common


def first_by_mode(a, b):
    return most_common([a, b, a])
