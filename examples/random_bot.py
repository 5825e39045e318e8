"""A bot for this site's bot API (docs/api.md) that plays any of its games with random legal
moves. Copy it, then give it a better `choose` (examples/medium_bot.py shows how).

    pip install httpx        # or, in this repository: uv sync
    python examples/random_bot.py --url https://example.org --token chp_...
    python examples/random_bot.py --url ... --token ... --queue boardroom --games 3

It listens to the account's events: it accepts every challenge, and plays every game it is
seated in, each on a thread of its own that reads the game's stream and posts a move whenever
the stream says the decision is the bot's. Without --queue it waits for challenges; with it,
it joins the bots' queue of that game (again after each game). A dropped stream (the site
restarted, the network blinked) is opened again: it starts with the game as it is now, so the
bot simply carries on from there.
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from queue import Queue
from typing import Any

import httpx

# A policy: the game (the stream's first line, `gameFull`) and the seat's current state (a
# `gameState`: its view, legal actions, version...) -> the action to post.
Policy = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]

NEVER = {"scoop"}  # giving up the game (Chudopoly): legal at any time, never useful here
RETRY_SECONDS = 1.0
GIVE_UP_SECONDS = 120.0  # the site unreachable this long: stop trying


def random_move(game: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """Any legal action but giving up. Each is posted back exactly as the stream listed it."""
    actions = [a for a in state["legal_actions"] if a["type"] not in NEVER]
    return random.choice(actions or state["legal_actions"])


class Api:
    """The site's API with one token: NDJSON streams and JSON posts."""

    def __init__(self, url: str, token: str) -> None:
        # Streams send an empty line every few seconds: a longer silence is a dead connection.
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"},
                                 timeout=httpx.Timeout(10.0, read=30.0))

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The events of one stream until it ends; keep-alive lines are skipped."""
        with self.http.stream("GET", path) as response:
            if response.status_code != 200:
                response.read()
                raise ApiRefusal(response.status_code, answer_of(response))
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        response = self.http.post(path, json=body or {})
        return response.status_code, answer_of(response)


def answer_of(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:  # not the site's JSON (a proxy's error page)
        return {"error": response.text[:200]}


class ApiRefusal(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status} {body}")
        self.status = status


def reconnecting(api: Api, path: str) -> Iterator[dict[str, Any]]:
    """A stream's events for as long as the caller reads them: a stream that drops or ends
    (the site restarted, a proxy closed it) is opened again, until the site has answered
    nothing but failures for GIVE_UP_SECONDS."""
    failing_since = None
    while True:
        try:
            for event in api.stream(path):
                failing_since = None
                yield event
            problem = "the stream ended"
        except httpx.TransportError as exc:
            problem = f"connection lost ({type(exc).__name__})"
        except ApiRefusal as exc:
            if exc.status < 500 and exc.status != 429:
                raise  # a refusal that waiting does not change (a revoked token...)
            problem = f"the site answered {exc.status}"
        failing_since = failing_since or time.monotonic()
        if time.monotonic() - failing_since > GIVE_UP_SECONDS:
            raise RuntimeError(f"{path}: {problem}; the site has been failing too long")
        print(f"{path}: {problem}, reconnecting", flush=True)
        time.sleep(RETRY_SECONDS)


def play_game(api: Api, game_id: int, choose: Policy) -> dict[str, Any] | None:
    """Play one game to its end; returns its last state."""
    game: dict[str, Any] = {}
    state: dict[str, Any] | None = None
    answered = (-1, "")  # the (version, decision token) the bot's last move was answered at
    moves = 0
    for event in reconnecting(api, f"/api/bot/game/stream/{game_id}"):
        if event["type"] == "gameFull":  # the first line of every connection
            game, event = event, event["state"]
        if event["type"] == "gone":
            print(f"game {game_id}: {event['error']}", flush=True)
            return state
        if event["type"] != "gameState" or (state and event["version"] < state["version"]):
            continue
        state = event
        if state["status"] != "running":
            break  # the game is over
        decision = (state["version"], state["decision_token"])
        if not state["your_decision"] or decision == answered:
            continue
        action = choose(game, state)
        body = {"action": action, "version": state["version"],
                "decision_token": state["decision_token"]}
        try:
            status, answer = api.post(f"/api/bot/game/{game_id}/move", body)
            if status == 400 and action not in state["legal_actions"]:
                # The policy built a move the game refused: fall back on a listed one.
                body["action"] = random_move(game, state)
                status, answer = api.post(f"/api/bot/game/{game_id}/move", body)
        except httpx.TransportError:
            continue  # not answered: the stream, reopened, tells whether it counted
        if status >= 500:
            # The site failed (a web process stopping, say): not a refusal. As with a lost
            # connection, the stream, reopened, tells whether the move counted.
            print(f"game {game_id}: the site answered {status}; waiting for the stream",
                  flush=True)
            continue
        answered = decision
        moves += status == 200
        if status not in (200, 409):
            print(f"game {game_id}: move refused: {answer}", flush=True)
        # 409 (stale, duplicate): the game moved on meanwhile; the stream brings what's next.
    if state is not None:
        result = state.get("result") or {}
        print(f"game {game_id} ({game.get('kind')}, seat {game.get('seat')}): {state['status']}, "
              f"winner {result.get('winner')}, {moves} moves of mine", flush=True)
    return state


def run(url: str, token: str, choose: Policy, *, queue: str | None = None,
        games: int | None = None, seats: int = 2, fill: bool = True) -> None:
    """Accept challenges and play every game of the account (`games`: stop after that many)."""
    api = Api(url, token)
    playing: set[int] = set()
    ended: Queue[BaseException | None] = Queue()  # a game over (None), or the listener failed

    def post(path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """A POST whose failure is only told: a challenge not accepted comes again on the
        event stream's next opening lines."""
        try:
            return api.post(path, body)
        except httpx.TransportError as exc:
            return 0, {"error": type(exc).__name__}

    def join_queue() -> None:
        if queue and (games is None or len(playing) < games):
            status, answer = post(f"/api/bot/queue/{queue}", {"seats": seats, "fill": fill})
            print(f"queue {queue}: {status} {answer}", flush=True)

    def play(game_id: int) -> None:
        try:
            play_game(api, game_id, choose)
        finally:
            ended.put(None)
        join_queue()

    def listen() -> None:
        try:
            for event in reconnecting(api, "/api/stream/event"):
                if event["type"] == "challenge" and event["challenge"]["status"] == "created":
                    challenge = event["challenge"]
                    status, _ = post(f"/api/challenge/{challenge['id']}/accept")
                    print(f"challenge {challenge['id']} from "
                          f"{challenge['challenger']['name']}: accept -> {status}", flush=True)
                elif (event["type"] == "gameStart" and event["game"]["id"] not in playing
                      and (games is None or len(playing) < games)):
                    playing.add(event["game"]["id"])
                    threading.Thread(target=play, args=(event["game"]["id"],),
                                     daemon=True).start()
        except BaseException as exc:  # a revoked token, the site gone for good...
            ended.put(exc)

    join_queue()
    threading.Thread(target=listen, daemon=True).start()
    done = 0
    while games is None or done < games:
        failure = ended.get()
        if failure is not None:
            raise failure
        done += 1


def main(choose: Policy = random_move) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the site, e.g. https://example.org")
    parser.add_argument("--token", required=True, help="a token with the bot:play scope")
    parser.add_argument("--queue", choices=["chudopoly", "boardroom", "commonwealth"],
                        help="join the bots' queue of this game (again after each game)")
    parser.add_argument("--seats", type=int, default=2, help="table size in the queue")
    parser.add_argument("--no-fill", action="store_true",
                        help="in the queue, wait for other bot accounts, never our own bots")
    parser.add_argument("--games", type=int, help="stop after this many games")
    args = parser.parse_args()
    run(args.url, args.token, choose, queue=args.queue, games=args.games, seats=args.seats,
        fill=not args.no_fill)


if __name__ == "__main__":
    main()
