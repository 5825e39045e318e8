"""The platform: tables, seats, clocks, bots scheduling, sockets and pages, for any game
registered through games.platform.interface (it imports no game package)."""

from games.platform import speedups

# Before any other module of the platform is imported: its hot modules compiled, when built
# from their sources as they are (games/platform/speedups.py).
speedups.install()
