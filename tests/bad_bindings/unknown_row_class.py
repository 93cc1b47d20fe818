# expect: unknown row class(es) 'tie'
from _rms import rms_norm
from verify.cases import rows
from verify.certification.binding import bind

KERNEL = bind(rms_norm, reference="rms_norm", inputs=rows(classes=("random", "tie")))
