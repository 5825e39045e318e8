"""`/healthz` on a real Daphne keeps answering while sockets are open on the same process.

Load balancers and `docker compose` probe it all the time; a probe that hangs once a socket is
open also held up every sync view of that process behind it (a bug found by the fault tests).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import urllib.request
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import wsclient  # noqa: E402 - bench/ goes on the path first

pytestmark = pytest.mark.slow


def _healthz(base: str) -> tuple[int, dict[str, object]]:
    with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
        return response.status, json.loads(response.read())


def test_healthz_answers_while_sockets_are_open_on_the_process(live_site: str) -> None:
    async def probe_with_sockets_open() -> list[tuple[int, dict[str, object]]]:
        ws_base = live_site.replace("http://", "ws://")
        sockets = [await wsclient.WSClient.connect(f"{ws_base}/ws/lobby/") for _ in range(3)]
        try:
            await asyncio.sleep(0.5)  # every socket is now receiving on the process's layer
            return [await asyncio.to_thread(_healthz, live_site) for _ in range(3)]
        finally:
            for ws in sockets:
                await ws.close()

    answers = asyncio.run(probe_with_sockets_open())
    assert [status for status, _ in answers] == [200, 200, 200]
    assert all(body["status"] == "ok" for _, body in answers), answers


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_healthz_leaves_no_redis_connection_behind(live_site: str) -> None:
    """Each probe's own layer closes its connections (they piled up two a probe)."""
    import redis

    server = redis.Redis.from_url(os.environ["REDIS_URL"])
    _healthz(live_site)  # the process's first probe opens whatever it keeps for good
    before = server.info("clients")["connected_clients"]
    for _ in range(20):
        assert _healthz(live_site)[0] == 200
    after = server.info("clients")["connected_clients"]
    server.close()
    assert after - before < 5, (before, after)
