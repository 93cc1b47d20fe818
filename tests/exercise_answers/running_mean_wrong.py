# expect: fail associative
# Averages the means and forgets the counts.
def combine(a, b):
    return (a[0] + b[0]) / 2, a[1] + b[1]
