# expect: kind=binary associative=proved commutative=proved idempotent=refuted separable=refuted
# torch's elementwise vocabulary, as written for tensors, audited as a scalar combine.
import torch


def merge(a, b):
    return torch.log(torch.exp(a) + torch.exp(b))
