"""The checker: interpretations, prover, searcher, float verdicts, certification, CLI."""
