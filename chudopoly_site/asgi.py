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
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from ladder.routing import websocket_urlpatterns as ladder_websockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + ladder_websockets))
        ),
    }
)

# Every database query and socket write lets go of the GIL and must win it back; under load a
# thread rendering a board holds it for the whole default 5 ms switch interval, so a move's ten
# or so round trips queue for up to 5 ms each (the convoy effect). A shorter interval hands the
# GIL back sooner (docs/performance.md, "Live tables under load").
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL)

if settings.TASK_BACKEND == "inprocess":
    # The embedded default has no worker or beat: this process runs the periodic sweeps.
    from games.scheduler import in_process_scheduler

    in_process_scheduler().start_periodic()
