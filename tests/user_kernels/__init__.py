"""Kernels written from published algorithms, as a user outside the project would write
them, each certified through ``verify.certification.binding.bind`` in a few lines."""
