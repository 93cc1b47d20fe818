# expect: the wrapper raised on case 'random rows=3 n=1' in float32: RuntimeError: no kernel
from verify.cases import rows
from verify.certification.binding import bind


def rms_norm(x, weight, eps=1e-6):
    raise RuntimeError("no kernel for this shape\n(a second line that is not shown)")


KERNEL = bind(rms_norm, reference="rms_norm", inputs=rows(n=[1, 7]))
