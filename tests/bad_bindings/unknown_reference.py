# expect: unknown reference 'rms_nrom'
from _rms import rms_norm
from verify.certification.binding import bind

KERNEL = bind(rms_norm, reference="rms_nrom")
