"""One exception root for the checker.

``VerifyError`` is what the public API raises; ``BadInput`` (a bad command line, an
unknown law or kernel, a user file that cannot be loaded or run) is the subclass the
command line maps to exit status 2 with its one-line message.

>>> issubclass(BadInput, VerifyError)
True
"""
from __future__ import annotations


class VerifyError(Exception):
    """Root of every error the checker raises on purpose."""


class BadInput(VerifyError):
    """The input (arguments, a law id, a kernel name, a user's file) is unusable."""
