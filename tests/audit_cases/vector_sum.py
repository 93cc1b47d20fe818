# expect: kind=vector permutation_invariant=proved-bounded linear=proved-bounded locality=proved-bounded locality.depends_on=[0,1,2,3]
def total(x):
    s = 0.0
    for v in x:
        s = s + v
    return s
