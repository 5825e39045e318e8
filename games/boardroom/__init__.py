"""Boardroom: the board game of seed 004 (engine, bots, simulator)."""
