"""How a web process runs its interpreter once everything long-lived is loaded."""

from __future__ import annotations

import contextlib
import gc
import sys
from pathlib import Path

from django.conf import settings


def settle_interpreter() -> None:
    """Everything loaded so far (Django, the apps, the templates) lives as long as the process:
    left out of the collector's full passes, which then walk only what the sockets made since.
    Full passes are also spaced out (GC_FULL_EVERY): each one stops every socket of the process
    at once, the largest single cause of the slowest moves under load (docs/performance.md).
    Young passes come after more allocations than Python's default (GC_YOUNG_EVERY): fewer
    passes over what a move keeps for a moment, for less CPU in all.
    The GIL switch interval is set for the table lane (GIL_SWITCH_MICROSECONDS).

    Called by chudopoly_site/asgi.py, and by bench/move_cost.py so that it measures a move as
    the web process makes it."""
    load_site_code()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(settings.GC_YOUNG_EVERY, middle, settings.GC_FULL_EVERY)
    sys.setswitchinterval(settings.GIL_SWITCH_MICROSECONDS / 1_000_000)


def load_site_code() -> None:
    """Every registered game made, and every template of the site's own compiled, with the
    template tag libraries they load: what the first table of each game would otherwise load
    while its players wait, kept from then on by the template engines. Loaded here it is part
    of the frozen start-up heap, not of what the collector walks, and a live process's memory
    grows by what its tables hold rather than by the code its first tables loaded
    (docs/performance.md, "web RSS per table")."""
    from django.template import engines

    from games.platform.interface import get_game, registered_games

    for key in registered_games():
        get_game(key)
    root = Path(settings.BASE_DIR).resolve()
    for backend in engines.all():
        for folder in backend.template_dirs:
            folder = Path(folder).resolve()
            if not folder.is_relative_to(root) or ".venv" in folder.parts:
                continue
            for path in sorted(folder.rglob("*.html")):
                # One that does not compile fails where it is rendered, as it would have.
                with contextlib.suppress(Exception):
                    backend.get_template(str(path.relative_to(folder)))
