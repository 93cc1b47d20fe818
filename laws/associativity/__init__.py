"""Associativity: a combine that can be regrouped licenses chunking, streaming and
parallel reduction or scan."""
