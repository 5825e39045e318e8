"""ASGI entry point: Daphne serves HTTP and websockets from this one application."""

from __future__ import annotations

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chudopoly_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from chudopoly_site.web_process import settle_interpreter  # noqa: E402
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

settle_interpreter()  # the collector and the GIL, for the sockets (web_process.py)

from chudopoly_site import group_reads  # noqa: E402

group_reads.install()  # group messages waited for, not polled for ten times a second

if "twisted.internet.reactor" in sys.modules:
    # Under Daphne: a frame goes to its socket at once, not at the reactor's next turn, and
    # a browser's plain text frame is read here, not by autobahn (socket_reads.py).
    # Daphne's once-a-second check looks only at connections that changed (daphne_checks.py).
    from chudopoly_site import daphne_checks, socket_reads, socket_writes

    socket_writes.install()
    socket_reads.install()
    daphne_checks.install()

# Players reach the site through this process: the clocks wait while no web process beats.
from games.platform.outages import start_web_heartbeat  # noqa: E402

start_web_heartbeat()

if settings.TASK_BACKEND == "inprocess":
    # The embedded default has no worker or beat: this process runs the periodic sweeps.
    from games.platform.scheduler import in_process_scheduler

    in_process_scheduler().start_periodic()
