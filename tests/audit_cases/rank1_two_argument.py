# expect: kind=two-argument separable=proved additively_separable=refuted
# A (query, key) score that factors: (q0·q1)·k.
def score(q, k):
    return q[0] * q[1] * k
