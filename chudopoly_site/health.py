"""`/healthz`: checks each real part the site needs and names the one that failed."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

LAYER_TIMEOUT = 3.0  # seconds; a probe that never answers is worse than one that says "failed"


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_channel_layer() -> str:
    """A message sent to a new channel comes back, within LAYER_TIMEOUT seconds.

    The round trip uses a layer object of its own. With the core Redis layer, the process's
    shared one is busy receiving for every open socket on the server's event loop, and
    channels-redis refuses (or, seen with channels-redis 4.3, waits for ever) when a second
    loop, this view's, receives on it too: a health check of a process with any socket open
    hung, and with it every sync view queued behind it on Django's one sync thread."""
    if DEFAULT_CHANNEL_LAYER not in settings.CHANNEL_LAYERS:
        raise RuntimeError("no channel layer configured")
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)

    async def round_trip() -> None:
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await layer.receive(channel)
        if message.get("token") != token:
            raise RuntimeError("channel layer returned a different message")

    async def checked() -> None:
        try:
            await asyncio.wait_for(round_trip(), LAYER_TIMEOUT)
        finally:
            await _close_own_layer(layer)

    async_to_sync(checked)()
    return "ok"


async def _close_own_layer(layer: Any) -> None:
    """Close the probe's own connections (each probe left two Redis clients open otherwise).
    The pub/sub layer's flush only drops this object's subscriptions; the core layer's would
    delete every key of the site's prefix in Redis, so that one closes its pools instead."""
    if isinstance(layer, RedisPubSubChannelLayer):
        await layer.flush()
    elif hasattr(layer, "close_pools"):
        await layer.close_pools()


def _check_broker() -> str:
    if settings.TASK_BACKEND == "inprocess":
        return "ok (in-process)"
    from chudopoly_site.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


def _check_heartbeat(role: str) -> str:
    """The newest heartbeat of the worker or beat is recent (chudopoly_site/heartbeats.py)."""
    if settings.TASK_BACKEND == "inprocess":
        return "ok (in-process)"
    from chudopoly_site import heartbeats

    seconds = heartbeats.age(role)
    if seconds is None:
        raise RuntimeError(f"no {role} heartbeat in Redis: is a Celery {role} running?")
    if seconds > settings.HEARTBEAT_STALE_SECONDS:
        raise RuntimeError(f"the last {role} heartbeat is {seconds:.0f} s old")
    return f"ok ({seconds:.1f} s ago)"


CHECKS = {
    "database": _check_database,
    "channel_layer": _check_channel_layer,
    "broker": _check_broker,
    "worker": lambda: _check_heartbeat("worker"),
    "beat": lambda: _check_heartbeat("beat"),
}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, str] = {}
    failed: list[str] = []
    for name, check in CHECKS.items():
        try:
            report[name] = check()
        except Exception as exc:  # report every failure, whatever its type
            report[name] = f"failed: {type(exc).__name__}: {exc}"
            failed.append(name)
    body = {"status": "ok" if not failed else "failed", "failed": failed, "checks": report}
    return JsonResponse(body, status=200 if not failed else 503)
