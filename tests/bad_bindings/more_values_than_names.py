# expect: the wrapper returned 5 values but the binding names 2 outputs (y, rstd)
from _rms import rms_norm_liger
from verify.certification.binding import bind

KERNEL = bind(rms_norm_liger, reference="rms_norm")
