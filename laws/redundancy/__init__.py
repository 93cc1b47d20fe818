"""Redundancy: the computation repeats work, or stores more than it needs.

The question that recognizes it: *is some intermediate result computed again although
it cannot have changed (keys and values of past tokens, a shared prompt prefix), or is
it held at more precision than the answer needs (weights that survive rounding to 8
bits with a known error)?* Then it can be cached and reused, or stored compactly, with
the equality (or the error bound) stated.
"""
