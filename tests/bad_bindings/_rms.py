"""The wrappers the bad bindings bind: an RMSNorm in plain torch, returning what the
binding in each file gets wrong."""
import torch


def rms_norm(x, weight, eps=1e-6):
    rstd = torch.rsqrt((x.float() * x.float()).mean(-1) + eps)
    return (x.float() * rstd[:, None] * weight.float()).to(x.dtype), rstd


def rms_norm_liger(x, weight, eps=1e-6):
    y, rstd = rms_norm(x, weight, eps)
    return y, x, rstd, 1024, 4
