# expect: fail
def answer():
    return True
