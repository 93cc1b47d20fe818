# expect: pass
def combine(a, b):
    m, n = a
    m2, n2 = b
    total = n + n2
    return (m * n + m2 * n2) / total, total
