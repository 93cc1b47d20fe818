"""Whether an exception came from a @triton.jit function, which on a GPU does not raise:
shared by the oracle (a precondition raising there) and the searcher (a law raising
there)."""
from __future__ import annotations

import os

import verify
from verify.engine.interp import JIT_CODES, is_library_file

_CHECKER_DIR = os.path.realpath(os.path.dirname(verify.__file__)) + os.sep


def raised_in_jit(exc: BaseException) -> bool:
    """The exception was raised by code of a @triton.jit function (through the library
    arithmetic it called, or the checker's arithmetic for a reading's numbers), which on
    a GPU or in Triton's interpreter does not raise: x/0 is ±∞ or NaN there."""
    last_user = None
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        # "<string>": code a library generated at run time (mpmath's operators)
        if not (name.startswith("<") or is_library_file(name)
                or os.path.realpath(name).startswith(_CHECKER_DIR)):
            last_user = tb.tb_frame.f_code
        tb = tb.tb_next
    return last_user is not None and last_user in JIT_CODES
