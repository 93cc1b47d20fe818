# expect: fail homomorphism_n2
# The shards' sums added without rescaling to the common maximum: associative, but it
# does not compute attention.
def combine(a, b):
    return max(a[0], b[0]), a[1] + b[1], a[2] + b[2]
