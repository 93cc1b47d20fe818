# expect: kind=vector permutation_invariant=refuted linear=proved-bounded locality=proved-bounded locality.depends_on=[0]
def head(x):
    return x[0]
