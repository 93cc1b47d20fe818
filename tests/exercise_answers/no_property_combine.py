# expect: pass
# Composing the steps as if they were affine maps: the checker refutes it, which is the
# right outcome (no such combine exists).
def compose(first, then):
    return first[0] * then[0], then[0] * first[1] + then[1]
