"""Symmetry: a transformation of the input that changes the output in a known way.

The question that recognizes it: *is there a transformation — swapping two bodies,
shifting a signal, permuting tokens, reflecting a frequency — under which the answer
is unchanged, negated, conjugated or permuted along?* Then half of the work can be
derived from the other half (one force per pair, half a spectrum), or an order can be
chosen freely (any permutation of keys), or the far field can be summarized by its
leading symmetric moment (Barnes–Hut).
"""
