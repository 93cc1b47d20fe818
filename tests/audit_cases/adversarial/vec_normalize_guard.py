# expect: kind=vector permutation_invariant=refuted|unknown permutation_equivariant=proved-bounded|tested|unknown shift_equivariant=proved-bounded|tested|unknown linear=refuted|unknown
# x/Σx where the sum is nonzero, x itself where it is 0.
def f(x):
    s = sum(x)
    if s != 0:
        return [v / s for v in x]
    return list(x)


WITNESS = {
    "permutation_invariant": ([1, 2, 3, 4],),
    "linear": (1, [1, 0, 0, 0], [1, 0, 0, 0]),
}
