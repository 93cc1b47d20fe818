# expect: kind=vector permutation_invariant=proved-bounded|tested|unknown linear=proved-bounded|tested|unknown
def f(x):
    return sum(x) / len(x)
