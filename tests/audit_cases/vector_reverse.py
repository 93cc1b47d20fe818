# expect: kind=vector permutation_invariant=refuted permutation_equivariant=refuted shift_equivariant=refuted linear=proved-bounded locality=proved-bounded locality.radius=3
def f(x):
    return x[::-1]
