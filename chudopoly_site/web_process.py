"""How a web process runs its interpreter once everything long-lived is loaded."""

from __future__ import annotations

import gc
import sys

from django.conf import settings


def settle_interpreter() -> None:
    """Everything loaded so far (Django, the apps, the templates) lives as long as the process:
    left out of the collector's full passes, which then walk only what the sockets made since.
    Full passes are also spaced out (GC_FULL_EVERY): each one stops every socket of the process
    at once, the largest single cause of the slowest moves under load (docs/performance.md).
    The GIL switch interval is set for the table lane (GIL_SWITCH_MICROSECONDS).

    Called by chudopoly_site/asgi.py, and by bench/move_cost.py so that it measures a move as
    the web process makes it."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, settings.GC_FULL_EVERY)
    sys.setswitchinterval(settings.GIL_SWITCH_MICROSECONDS / 1_000_000)
