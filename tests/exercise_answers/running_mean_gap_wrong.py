# expect: fail associative
# The merged mean placed on the segment between the two means, the position found by a
# division by the gap m2 − m; when the means are equal there is nothing to place, but
# that branch also forgets the second chunk's count.
def combine(a, b):
    m, n = a
    m2, n2 = b
    if m2 != m:
        t = ((m * n + m2 * n2) / (n + n2) - m) / (m2 - m)
        return m + t * (m2 - m), n + n2
    return m, n
