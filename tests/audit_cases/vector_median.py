# expect: kind=vector permutation_invariant=proved-bounded linear=refuted locality=proved-bounded
import statistics


def f(x):
    return statistics.median(x)
