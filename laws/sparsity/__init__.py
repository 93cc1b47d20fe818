"""Sparsity: many terms of the computation are known to be zero, so they can be skipped.

The question that recognizes it: *which terms are zero (or masked, or unselected) for
a reason known before computing them — a causal mask, a sparsity pattern, an
unselected expert, a negative activation — and does skipping them leave every other
term unchanged?* Then the work (and the memory traffic) of those terms is saved.
"""
