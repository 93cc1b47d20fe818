"""Separability: a computation that factors into independent, smaller pieces.

The question that recognizes it: *does the operator (a weight, a kernel, a matrix)
factor into pieces whose separate application gives the same answer — a product of
thin factors, an outer product, a chain of smaller maps?* Then the pieces can be
stored and applied instead of the whole: fewer parameters, fewer flops, less traffic.
"""
