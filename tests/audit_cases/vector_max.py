# expect: kind=vector permutation_invariant=proved-bounded linear=refuted locality=proved-bounded
def f(x):
    return max(x)
