# expect: kind=vector permutation_invariant=refuted permutation_equivariant=proved-bounded|tested shift_equivariant=proved-bounded|tested linear=refuted
import math


def softmax(x):
    m = max(x)
    e = [math.exp(v - m) for v in x]
    s = sum(e)
    return [v / s for v in e]
