# expect: kind=vector permutation_invariant=refuted permutation_equivariant=refuted shift_equivariant=refuted linear=proved-bounded locality=proved-bounded locality.radius=1
# Radius-1 moving average, the window clipped at the ends.
def smooth(x):
    n = len(x)
    out = []
    for i in range(n):
        window = x[max(i - 1, 0):min(i + 2, n)]
        out.append(sum(window) / len(window))
    return out
