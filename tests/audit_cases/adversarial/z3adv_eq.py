# helper
# A user module whose name happens to start with "z3": ordinary Python, no solver.
def same(a, b):
    return a == b


def plus(a, b):
    return a + b


def merge_equal(a, b):
    return a if a == b else a + b
