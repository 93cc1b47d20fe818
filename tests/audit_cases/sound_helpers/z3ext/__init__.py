"""A user package whose name starts with z3."""


def pick_if_equal(a, b):
    return b if a == b else a - b
