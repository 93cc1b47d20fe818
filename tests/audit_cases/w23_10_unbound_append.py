# expect: kind=binary associative=unknown|refuted
# list.append(_LOG, a) changes a module global through the unbound method. Fresh import
# at (2, 1, 3): lhs 9.0, rhs 8.0.
_LOG = []


def f(a, b):
    list.append(_LOG, a)
    return a * b + (len(_LOG) % 2)
