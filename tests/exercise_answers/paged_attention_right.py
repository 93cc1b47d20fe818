# expect: pass
def answer():
    return "redundancy"
