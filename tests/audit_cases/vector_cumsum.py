# expect: kind=vector permutation_invariant=refuted permutation_equivariant=refuted shift_equivariant=refuted linear=proved-bounded locality=proved-bounded locality.per_output=[0,1,2,3]
def cumsum(x):
    out, s = [], 0
    for v in x:
        s = s + v
        out.append(s)
    return out
