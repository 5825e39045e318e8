"""Each real part is really used: PostgreSQL, the Redis channel layer and a Celery worker."""

from __future__ import annotations

import os
import time

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client

from chudopoly_site.asgi import application
from games.platform.lobby import LOBBY_GROUP
from games.platform.tasks import ping


@pytest.mark.django_db
def test_the_database_is_postgresql_whenever_database_url_says_so() -> None:
    url = os.environ.get("DATABASE_URL", "")
    print(f"database vendor: {connection.vendor}")
    if url.startswith(("postgres://", "postgresql://")):
        assert connection.vendor == "postgresql"
        with connection.cursor() as cursor:
            cursor.execute("SELECT version()")
            assert "PostgreSQL" in cursor.fetchone()[0]
        # Connections come from Django's psycopg pool, never kept per thread.
        assert connection.settings_dict["CONN_MAX_AGE"] == 0
        assert connection.pool is not None
    else:
        assert connection.vendor == "sqlite"


@pytest.mark.django_db
def test_signing_in_reads_the_user_and_writes_a_session_through_the_orm(client: Client) -> None:
    User.objects.create_superuser("alice", "alice@example.com", "correct horse battery")
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": "alice", "password": "correct horse battery", "next": "/admin/"},
    )
    assert response.status_code == 302
    assert Session.objects.count() == 1
    assert client.get("/admin/").status_code == 200


def test_the_channel_layer_is_redis_whenever_redis_url_says_so() -> None:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    print(f"channel layer: {backend}")
    if os.environ.get("REDIS_URL"):
        assert backend.startswith("channels_redis.")
        assert backend == settings.CHANNEL_LAYER_CHOICES[settings.CHANNEL_LAYER]["BACKEND"]
    else:
        assert backend == "channels.layers.InMemoryChannelLayer"


@pytest.mark.django_db(transaction=True)
async def test_a_group_send_reaches_a_connected_lobby_socket() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://127.0.0.1"),
                                             (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert connected
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.changed"})
    frame = await communicator.receive_from(timeout=5)
    await communicator.disconnect()
    assert 'id="public-tables"' in frame
    assert 'hx-swap-oob="true"' in frame


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_a_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example"),
                                             (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    assert connected is False


def test_a_real_worker_runs_a_task_from_the_redis_broker(celery_worker_process: None) -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis")
    assert ping.delay("now").get(timeout=30) == "pong:now"


def test_a_real_worker_runs_a_countdown_task_no_earlier_than_asked(
    celery_worker_process: None,
) -> None:
    started = time.monotonic()
    result = ping.apply_async(kwargs={"token": "later"}, countdown=2)
    assert result.get(timeout=30) == "pong:later"
    assert time.monotonic() - started >= 2.0


def test_standalone_celery_beat_sends_the_periodic_sweeps(tmp_path: object) -> None:
    """docker compose runs beat as its own process: prove that command works here too."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL: the embedded default runs sweeps in-process")
    import select
    import subprocess
    import sys
    from pathlib import Path

    assert settings.PERIODIC_TASKS, "no periodic sweeps are registered"
    # A prefix of its own: the suite's worker (with its own beat) may already hold the beat
    # lock of the default prefix, and this beat would wait for it (chudopoly_site/beat_lock.py).
    env = {**os.environ, "CHANNEL_PREFIX": f"standalone-beat-{os.getpid()}"}
    beat = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "chudopoly_site", "beat", "--loglevel", "INFO",
         "--schedule", str(Path(str(tmp_path)) / "beat-schedule")],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    try:
        output = ""
        deadline = time.monotonic() + 30
        while "Sending due task" not in output and time.monotonic() < deadline:
            # readline() alone would block past the deadline on a beat that went quiet.
            ready, _, _ = select.select([beat.stdout], [], [], 1.0)
            if not ready:
                continue
            line = beat.stdout.readline()
            if not line and beat.poll() is not None:
                break
            output += line
    finally:
        beat.terminate()
        beat.wait(timeout=10)
    assert "Sending due task" in output, output
