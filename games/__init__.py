"""The platform (games.platform) and one package per game (games.chudopoly, ...)."""
