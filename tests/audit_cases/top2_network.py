# expect: kind=binary associative=proved commutative=proved idempotent=refuted
# Merge of two descending top-2 lists with max/min only (a merging network).
def merge(a, b):
    first = max(a[0], b[0])
    second = max(min(a[0], b[0]), max(a[1], b[1]))
    return first, second
