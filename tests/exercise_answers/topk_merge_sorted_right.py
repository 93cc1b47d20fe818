# expect: pass
def merge(a, b):
    s = sorted(list(a) + list(b), reverse=True)
    return s[0], s[1]
