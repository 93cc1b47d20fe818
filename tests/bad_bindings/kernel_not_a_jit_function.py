# expect: kernel= expects the @triton.jit function (autotuned or not), got a function
from _rms import rms_norm
from verify.certification.binding import bind

KERNEL = bind(rms_norm, reference="rms_norm", kernel=rms_norm)
