"""Commonwealth: the cooperative-competitive board game of seed 002 (docs/commonwealth.md)."""
