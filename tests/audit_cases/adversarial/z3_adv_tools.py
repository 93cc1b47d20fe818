# helper
# User helpers in a module named z3_…: equality and hashing of the values they get.
def unique(xs):
    return list(dict.fromkeys(xs))


def count(xs, v):
    return xs.count(v)


def safe_div(n, d):
    return 0.0 if d == 0 else n / d
