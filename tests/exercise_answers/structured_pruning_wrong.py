# expect: fail
def answer():
    return "sparsity"
