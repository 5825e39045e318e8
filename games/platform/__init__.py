"""The platform: tables, seats, clocks, bots scheduling, sockets and pages, for any game
registered through games.platform.interface (it imports no game package)."""
