# expect: pass
def answer():
    return {"separability", "sparsity"}
