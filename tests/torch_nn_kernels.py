"""torch stand-ins for the kernels users bind to the nn references, one per rounding
convention: inputs in their dtype, float32 arithmetic, outputs stored as such kernels
store them; and the near misses (a convention's rounding forgotten, an output scaled)."""
import math
import torch
import torch.nn.functional as F

SQRT1_2 = math.sqrt(0.5)


def rms_norm(cast):
    def run(x, weight, eps=1e-6):
        xf = x.float()
        rstd = torch.rsqrt((xf * xf).mean(-1, keepdim=True) + eps)
        if cast == "llama":
            y = weight * (xf * rstd).to(x.dtype)
        elif cast == "gemma":
            y = (xf * rstd * (1.0 + weight.float())).to(x.dtype)
        else:
            y = (xf * rstd * weight.float()).to(x.dtype)
        return y, rstd.squeeze(-1)
    return run


def layer_norm(stats):
    def run(x, weight, bias, eps=1e-5):
        xf = x.float()
        mean = xf.mean(-1, keepdim=True)
        if stats == "input":
            mean = mean.to(x.dtype).float()
        d = xf - mean
        rstd = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
        if stats == "input":
            rstd = rstd.to(x.dtype).float()
        y = (d * rstd * weight.float() + bias.float()).to(x.dtype)
        fmt = x.dtype if stats == "input" else torch.float32
        return y, mean.squeeze(-1).to(fmt), rstd.squeeze(-1).to(fmt)
    return run


def group_norm(num_groups=2):
    def run(x, weight, bias, eps=1e-5):
        n, c = x.shape[:2]
        y, mean, rstd = torch.ops.aten.native_group_norm(
            x.float(), weight.float(), bias.float(), n, c, x[0, 0].numel(), num_groups, eps)
        return y.to(x.dtype), mean, rstd
    return run


def swiglu(round_activation):
    def run(a, b):
        if round_activation:  # the model code: F.silu on the input dtype, then its product
            return F.silu(a) * b
        af = a.float()
        return (af * torch.sigmoid(af) * b.float()).to(a.dtype)
    return run


def geglu(approximate, round_activation=False, tanh_by_sigmoid=False):
    def run(a, b):
        af = a.float()
        if approximate == "tanh":
            z = math.sqrt(2 / math.pi) * (af + 0.044715 * (af * af * af))
            t = 2.0 * torch.sigmoid(2.0 * z) - 1.0 if tanh_by_sigmoid else torch.tanh(z)
            act = 0.5 * af * (1.0 + t)
        else:
            act = 0.5 * af * (1.0 + torch.erf(af * SQRT1_2))
        if round_activation:
            act = act.to(a.dtype).float()
        return (act * b.float()).to(a.dtype)
    return run


def cross_entropy(zero_ignored=True, ignore_index=-100):
    def run(x, target):
        xf = x.float()
        lse = torch.logsumexp(xf, -1)
        if zero_ignored:
            loss = F.cross_entropy(xf, target, reduction="none", ignore_index=ignore_index)
        else:  # forgets the ignored rows: the loss of class 0 there
            loss = lse - xf.gather(-1, target.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        return loss, lse
    return run


def nll_log_softmax(ignore_index=-100):
    def run(x, target):
        ls = F.log_softmax(x.float(), -1)
        loss = F.nll_loss(ls, target, reduction="none", ignore_index=ignore_index)
        return loss, ls.to(x.dtype), torch.logsumexp(x.float(), -1)
    return run


def scaled(fn, factor=1.0 + 2.0 ** -10):
    """``fn`` with its first output multiplied by ``factor`` (then stored again)."""
    def run(*args, **kwargs):
        out = fn(*args, **kwargs)
        out = out if isinstance(out, tuple) else (out,)
        return ((out[0].double() * factor).to(out[0].dtype),) + tuple(out[1:])
    return run
