# expect: kind=two-argument separable=refuted additively_separable=refuted
def score(q, k):
    return q[0] * k + q[1]
