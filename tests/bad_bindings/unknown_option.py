# expect: reference 'rms_norm' has no option(s) epsilon
from _rms import rms_norm
from verify.certification.binding import bind

KERNEL = bind(rms_norm, reference="rms_norm", epsilon=1e-6)
