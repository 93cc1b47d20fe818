# expect: pass
# A combine of two medians: the checker refutes it, which is the right outcome.
def combine(a, b):
    return (a + b) / 2
