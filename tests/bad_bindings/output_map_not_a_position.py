# expect: outputs map: positions must be integers ≥ 0 (got rstd: '2')
from _rms import rms_norm_liger
from verify.certification.binding import bind

KERNEL = bind(rms_norm_liger, reference="rms_norm", outputs={"y": 0, "rstd": "2"})
