# expect: fail
def answer():
    return "locality"
