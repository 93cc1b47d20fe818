# expect: pass
def add(a, b):
    return a + b
