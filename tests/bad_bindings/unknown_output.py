# expect: reference 'rms_norm' has no output(s) inv_rms
from _rms import rms_norm
from verify.certification.binding import bind

KERNEL = bind(rms_norm, reference="rms_norm", outputs=("y", "inv_rms"))
