"""The game stream and moves over a real Daphne: a move posted over HTTP reaches the seat's
open stream as its next gameState, and the stream reopened after it starts from there."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from api_helpers import engine_seat_of, make_account, make_token, seated_game, stream_state
from api_helpers import until_seat_decides as wait_for_seat

pytestmark = pytest.mark.django_db(transaction=True)
HANG = 60  # seconds before a read counts as a hang (not a measure of speed)


class LiveStream:
    def __init__(self, base: str, path: str, secret: str) -> None:
        address = urlsplit(base)
        self.connection = http.client.HTTPConnection(address.hostname, address.port,
                                                     timeout=HANG)
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {secret}"})
        self.response = self.connection.getresponse()

    def event(self) -> dict[str, Any]:
        while True:
            line = self.response.readline()
            if not line:
                raise AssertionError("the stream ended")
            if line.strip():
                return json.loads(line)

    def close(self) -> None:
        self.connection.close()


def _post(base: str, path: str, secret: str, body: dict[str, Any]) -> tuple[int, Any]:
    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=HANG)
    connection.request("POST", path, body=json.dumps(body),
                       headers={"Authorization": f"Bearer {secret}",
                                "Content-Type": "application/json"})
    response = connection.getresponse()
    answer = response.status, json.loads(response.read())
    connection.close()
    return answer


@pytest.mark.parametrize("kind", ["chudopoly", "boardroom", "commonwealth"])
def test_a_move_posted_to_daphne_reaches_the_seats_open_stream(live_server_url: str,
                                                               kind: str) -> None:
    alice = make_account("alice")
    secret = make_token(alice)
    # Two people and no bot: nothing moves but what the test posts.
    game = seated_game(alice, kind=kind, bots=0, others=[make_account("bob")])
    seat = engine_seat_of(game, alice)
    game = wait_for_seat(game, seat)
    stream = LiveStream(live_server_url, f"/api/bot/game/stream/{game.pk}", secret)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type") == "application/x-ndjson"
    full = stream.event()
    assert full["type"] == "gameFull" and full["state"]["version"] == game.version
    state = full["state"]
    assert state["your_decision"] and state["legal_actions"]
    status, answer = _post(live_server_url, f"/api/bot/game/{game.pk}/move", secret,
                           {"action": state["legal_actions"][0], "version": state["version"],
                            "decision_token": state["decision_token"]})
    assert status == 200, answer
    after = stream.event()
    assert after["type"] == "gameState" and after["version"] == state["version"] + 1
    stream.close()
    # Reconnecting (after a restart, say) starts from the state as it is now.
    again = LiveStream(live_server_url, f"/api/bot/game/stream/{game.table.code}", secret)
    game.refresh_from_db()
    assert again.event()["state"] == json.loads(json.dumps(stream_state(game, seat)))
    again.close()
