# expect: pass
def answer():
    return False
