# expect: kind=two-argument symmetric=proved separable=refuted additively_separable=refuted
def dot(x, y):
    return x[0] * y[0] + x[1] * y[1]
