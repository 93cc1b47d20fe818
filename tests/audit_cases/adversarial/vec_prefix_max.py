# expect: kind=vector permutation_invariant=refuted|unknown permutation_equivariant=refuted|unknown shift_equivariant=refuted|unknown linear=refuted|unknown
def f(x):
    out = []
    m = x[0]
    for v in x:
        m = max(m, v)
        out.append(m)
    return out


WITNESS = {
    "permutation_invariant": ([1, 2, 3, 4],),
    "permutation_equivariant": ([2, 1, 0, 0],),
    "shift_equivariant": ([1, 0, 0, 0],),
    "linear": (-1, [1, 0, 0, 0], [0, 0, 0, 0]),
}
