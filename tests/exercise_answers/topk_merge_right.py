# expect: pass
def merge(a, b):
    return max(a[0], b[0]), max(min(a[0], b[0]), max(a[1], b[1]))
