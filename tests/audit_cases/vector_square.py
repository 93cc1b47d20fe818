# expect: kind=vector permutation_invariant=refuted permutation_equivariant=proved-bounded shift_equivariant=proved-bounded linear=refuted locality=proved-bounded locality.radius=0
def square(x):
    return [v * v for v in x]
