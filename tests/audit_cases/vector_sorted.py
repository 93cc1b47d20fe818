# expect: kind=vector permutation_invariant=proved-bounded permutation_equivariant=refuted shift_equivariant=refuted linear=refuted locality=proved-bounded locality.radius=3
def f(x):
    return sorted(x)
