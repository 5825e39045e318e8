"""ASGI entry point: Daphne serves HTTP and websockets from this one application."""

from __future__ import annotations

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chudopoly_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from chudopoly_site.websocket_origin import SameOriginValidator  # noqa: E402
from games.platform.routing import websocket_urlpatterns  # noqa: E402
from ladder.routing import websocket_urlpatterns as ladder_websockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + ladder_websockets))
        ),
    }
)

# Everything loaded so far (Django, the apps, the templates) lives as long as the process: left
# out of the collector's full passes, which then walk only what the sockets made since. Full
# passes are also spaced out (GC_FULL_EVERY): each one stops every socket of the process at
# once, the largest single cause of the slowest moves under load (docs/performance.md).
gc.freeze()
young, middle, _ = gc.get_threshold()
gc.set_threshold(young, middle, settings.GC_FULL_EVERY)
sys.setswitchinterval(settings.GIL_SWITCH_MICROSECONDS / 1_000_000)

if settings.TASK_BACKEND == "inprocess":
    # The embedded default has no worker or beat: this process runs the periodic sweeps.
    from games.platform.scheduler import in_process_scheduler

    in_process_scheduler().start_periodic()
