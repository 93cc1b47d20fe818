"""Locality: each piece of the output depends only on a small, known piece of the input.

The question that recognizes it: *which inputs does one output (or one tile of
outputs) read, and is that set small and known in advance — a block row and a block
column, a window of the kernel's radius, a band of keys?* Then a tile of outputs can be
computed from a tile of inputs held in fast memory (shared memory, registers, cache),
loaded once and reused.
"""
