# expect: pass
# A guarded division whose guard never fires on real states (counts are positive).
def combine(a, b):
    m, n = a
    m2, n2 = b
    total = n + n2
    if total != 0:
        return (m * n + m2 * n2) / total, total
    return m, total
