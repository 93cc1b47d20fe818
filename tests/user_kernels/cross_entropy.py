"""Cross-entropy forward as fused-loss kernels write it: one program per row, the classes
streamed in blocks of BLOCK < number of classes with an online softmax in float32 (a
running maximum m and a running sum s of e^(x − m), s rescaled by e^(m_old − m_new)
whenever a later block raises the maximum), loss = m + log s − x[target] in float32; a
row whose target is ignore_index gives 0. Planted bugs are flags of the wrapper."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def cross_entropy_kernel(x_ptr, target_ptr, loss_ptr, n_classes, ignore_index,
                         BLOCK: tl.constexpr, RESCALE: tl.constexpr,
                         TARGET_SHIFT: tl.constexpr, HONOUR_IGNORE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_classes
    lanes = tl.arange(0, BLOCK)
    m = tl.max(tl.full([BLOCK], -float("inf"), tl.float32), axis=0)
    s = tl.sum(tl.zeros([BLOCK], tl.float32), axis=0)
    for start in range(0, n_classes, BLOCK):
        cols = start + lanes
        x = tl.load(x_row + cols, mask=cols < n_classes, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        if RESCALE:
            s = s * tl.exp(m - m_new)
        s = s + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    target = tl.load(target_ptr + row)
    kept = target != ignore_index
    picked = tl.load(x_row + target + TARGET_SHIFT, mask=kept, other=0.0).to(tl.float32)
    loss = m + tl.log(s) - picked
    if HONOUR_IGNORE:
        loss = tl.where(kept, loss, 0.0)
    tl.store(loss_ptr + row, loss)


def cross_entropy(x, target, ignore_index=-100, block=64, rescale=True, target_shift=0,
                  honour_ignore=True):
    """Per-row losses (float32) of logits x (rows × classes) against integer targets."""
    assert x.dim() == 2 and x.is_contiguous() and target.shape == (x.shape[0],)
    loss = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    cross_entropy_kernel[(x.shape[0],)](x, target, loss, x.shape[1], ignore_index,
                                        BLOCK=min(block, triton.next_power_of_2(x.shape[1])),
                                        RESCALE=rescale, TARGET_SHIFT=target_shift,
                                        HONOUR_IGNORE=honour_ignore)
    return loss


PLANTED = {
    "no rescale when a later block raises the max":
        lambda x, t, ignore_index: cross_entropy(x, t, ignore_index, rescale=False),
    "target off by one": lambda x, t, ignore_index: cross_entropy(x, t, ignore_index,
                                                                  target_shift=1),
    "ignore_index not honoured":
        lambda x, t, ignore_index: cross_entropy(x, t, ignore_index, honour_ignore=False),
}


def binding(fn=cross_entropy):
    return bind(fn, reference="cross_entropy", outputs=("loss",), dtypes=("float32", "float16"),
                inputs=rows(n=[1, 7, 64, 65, 200, 300], rows=4,
                            classes=("random", "length-1", "ties", "huge-dynamic-range",
                                     "large-offset")))


KERNEL = binding()
