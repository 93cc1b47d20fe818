# expect: kind=binary associative=tested commutative=refuted identity=unknown idempotent=tested
# statistics.mode hashes its data: the prover is not used, the searcher decides.
import statistics


def f(a, b):
    return statistics.mode([a, b, b])
