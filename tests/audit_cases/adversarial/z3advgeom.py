# helper
def distinct(xs):
    return len(set(xs))


def same_key(k, j):
    return k == j
