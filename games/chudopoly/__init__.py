"""Chudopoly: its engine, bots, adapter (game.py), board presenter, template tags, templates
and rules data, plugged into the platform by its AppConfig."""
