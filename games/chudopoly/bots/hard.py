"""The hard bot: determinized Monte Carlo search over its heuristic's best candidates.

For one decision:
1. Candidates: the legal actions its heuristic scores highest (`CANDIDATES`, deduplicated:
   two identical 1M notes are one choice), plus ending the turn; OPSEC answers are always both
   considered; payments are the knapsack's choice plus the cheapest listed ones. The heuristic
   is the medium bot's with this bot's own weights, `STYLE` (it holds properties until they
   count and keeps Inspector General and CHUD for an armed opponent). A decision with one
   candidate is made at once.
2. Worlds: `determinize.sample_world` deals the cards the seat has not seen into the other hands
   and the deck at random, consistent with every visible card and count.
3. Playouts: a one-turn search (`PRESELECT_STEPS`, every candidate played to the end of the
   current turn) names the one challenger of the heuristic's move; both are then played to the
   end of the game (`HORIZON` "game") in world after world, this seat by its heuristic and
   every other seat by the standard medium bot, move for move as it plays at a table
   (`PLAYOUT_EXACT`), so the opponents are modelled exactly but for the cards they hold.
   Other horizons remain as options: "turn" (until the current turn passes) and "round"
   (until this seat's next turn starts). Every candidate sees the same worlds (common random
   numbers), so their differences are not drowned in the deal's luck.
4. Leaf value: 1 for a win, 0 for a loss; a playout cut short (`GAME_STEP_CAP`, or the
   shorter horizons) is scored by evalfit's fitted chance of winning.
5. Successive halving: after 2, 4, 8, ... worlds the worse half of the candidates is dropped.
6. Choice: the challenger replaces the heuristic's move only when it is ahead by more than
   `CONFIDENCE` standard errors on the worlds both were played in.

Budget: the search stops after `budget * STEPS_PER_SECOND` engine steps (deterministic: the same
view gives the same move) or at the wall-clock deadline of `budget` seconds, whichever comes
first; a round of worlds cut short by the deadline is discarded. On this project's reference
machine the step budget ends the search first: about 160 ms a decision on average at 1 s.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from typing import Any

from games.chudopoly.engine.apply import apply
from games.chudopoly.engine.board import complete_colours, net_worth, rent_for
from games.chudopoly.engine.legal import legal_actions, responses, to_decide
from games.chudopoly.engine.payment import owed_entry
from games.chudopoly.engine.state import catalogue_for
from games.chudopoly.engine.winning import checkpoint_forecast

from . import evalfit, medium
from .determinize import sample_world
from .observe import Obs, seed_from, seed_of

DEFAULT_BUDGET = 1.0  # seconds per decision
STEPS_PER_SECOND = 3000  # engine steps (apply + medium decision) per second of budget; 3600
# and 4000 won no more against three mediums (docs/bots.md), so the cheaper steps buy headroom
CANDIDATES = 6
PAY_CANDIDATES = 4
ROLLOUT_STEP_CAP = 400
GAME_STEP_CAP = 3000  # "game" horizon: a playout this long is cut and scored by the leaf
PRESELECT_STEPS = 375  # "game": steps of a one-turn search that picks the one challenger the game
# playouts weigh against the medium move (0: the game playouts weigh every candidate)
TEMPERATURE = 0.2
CONFIDENCE = 1.0  # standard errors by which a candidate must beat the medium choice
MIN_GAIN = 0.005  # and the least leaf value it must gain on average
CONVERT_VALUE = 0.95  # the leaf value of a forecast conversion (not a certain win)
HORIZON = "game"  # "turn": until this turn ends; "round": until this seat's next turn starts;
# "adaptive": "round" when the final approach is in play (someone armed, or this seat one set
# short), where the opponents' replies decide the game, else "turn"; "game": to the end of the
# game (value 1 or 0), the opponents being medium bots, so the playout is their own policy
PLAYOUT_EXACT = True  # playouts use the medium bot exactly as it plays at a table: free
# rearranges and its view-seeded tie-breaks (`state_seed`); otherwise no rearranges, first of ties
EVAL = "learned"  # "learned": evalfit's fitted model; "hand": the hand-written one below
FIRST_CUT = 2  # worlds before successive halving first drops candidates
LEAF_WEIGHTS: tuple[float, ...] | None = None  # None: evalfit.WEIGHTS
FORECAST_SPARE = False  # approach_forecast: sets beyond the target absorb shots
FORECAST_CHARGES = False  # approach_forecast: charges payable only from a set are shots
FORECAST_HAND_ONCE = False  # approach_forecast: a hand's cards shoot once, not every lap
SEARCH_DISCARDS = False  # weigh discard selections other than the medium bot's
DISCARD_CANDIDATES = 4
OPPONENT_MODEL = False  # deal no breaker to a seat that let an armed player pass (determinize)
STYLE = medium.Style(place_base=0.0, ig_keep=30.0, chud_keep=(12.0, 20.0))
# the weights this bot's own heuristic plays with (its candidates, its own seat in playouts):
# properties held until they count, Inspector General and CHUD held for an armed opponent
# (docs/bots.md); every other seat is played out as a standard medium bot
HAND_PRIOR: dict[str, float] | None = None  # deal other hands by card sort with these weights
# (determinize.sample_world's prior); MEDIUM_HAND_PRIOR is what medium bots keep in hand
MEDIUM_HAND_PRIOR = {
    # Opponents' hands against the deck, by card sort, at the start of each medium seat's
    # plays in 400 four-medium games (deals from seed 300000): a medium bot plays its
    # properties and breakers and keeps its OPSEC, surges and rents.
    "surge_ops": 3.22, "upgrade": 2.46, "opsec": 2.04, "tdy_orders": 1.6, "rent": 1.56,
    "foc": 1.52, "midnight_requisition": 1.39, "pcs_orders": 1.34, "money": 1.01, "chud": 0.78,
    "inspector_general": 0.7, "roll_call": 0.66, "finance_office": 0.44, "property": 0.38,
    "wild": 0.28,
}


# ---- leaf evaluation ------------------------------------------------------------------------

def strength(o: Obs, seat: int, hand: list[int]) -> float:
    """A seat's standing in points (the medium bot's scale: a set is worth about 10)."""
    score = medium.board_score(o, seat)
    sets = o.sets(seat)
    score += 6.0 * max(0, sets - 1)
    score += 0.25 * min(o.bank_total(seat), 20)
    key = o.cat.key
    for c in hand:
        k = key[c]
        if k in ("inspector_general", "chud"):
            score += 3.0
        elif k == "opsec":
            score += 2.5
        else:
            score += 0.4
    if o.armed[seat]:
        score += 12.0
    return score


def approach_forecast(state: dict[str, Any]) -> tuple[int | None, dict[int, int]]:
    """Who converts first, and who gets shot down by whom, if every seat spends the breakers
    it holds (and will draw) on armed players, OPSEC answering OPSEC (REFERENCE §8: every bot
    shoots an armed opponent first). Reads the sampled world's hands and deck order, so over
    many worlds this is an estimate of the odds the seat cannot see.

    With `FORECAST_HAND_ONCE` the cards a hand holds now are counted at that seat's first turn
    only (a breaker played is gone; before, a seat that came round twice shot twice with it).
    With `FORECAST_SPARE` an armed seat holding more sets than the target survives one landed
    shot per spare set; with `FORECAST_CHARGES` a charge card the shooter holds counts as a shot
    when the armed seat could pay it only out of a set (medium bots aim such charges at armed
    players, and a thin bank is how armed players were lost to payments).

    Returns (first converting seat or None, {broken seat: shooter})."""
    armed = [s for s in state["order"]
             if state["players"][s]["active"] and state["players"][s]["armed_at"] is not None]
    if not armed:
        return None, {}
    cat = catalogue_for(state)
    key = cat.key
    players = state["players"]
    order = [s for s in state["order"] if players[s]["active"]]
    n = len(order)
    cur = order.index(state["turn"]) if state["turn"] in order else 0
    deck = state["deck"]
    pure = state["ruleset"]["pureSetRequired"]
    target = state["ruleset"]["setsToWin"]
    converting: list[tuple[int, int]] = []
    broken: dict[int, int] = {}
    for a in armed:
        forecast = checkpoint_forecast(state, a)
        if forecast is None:
            continue
        shots_before = forecast[0] - state["turn_number"]  # turns (from this one) before it
        opsec = sum(1 for c in players[a]["hand"] if key[c] == "opsec")
        sets = complete_colours(cat, players[a], pure)
        spare = max(0, len(sets) - target) if FORECAST_SPARE else 0
        loose = _loose_value(cat, players[a], sets) if FORECAST_CHARGES else 0
        drawn = len(deck)
        shooter = None
        spent: set[int] = set()  # seats whose hand has already been counted
        for k in range(max(0, shots_before)):
            seat = order[(cur + k) % n]
            if k > 0:
                drawn -= 2
            if seat == a:
                continue
            hand = [] if FORECAST_HAND_ONCE and seat in spent else players[seat]["hand"]
            spent.add(seat)
            cards = hand + (deck[max(0, drawn):drawn + 2] if k > 0 else [])
            shots = sum(1 for c in cards if key[c] in ("inspector_general", "chud"))
            if FORECAST_CHARGES:
                shots += sum(1 for c in cards if _charge_of(cat, players[seat], c) > loose)
            counters = sum(1 for c in cards if key[c] == "opsec")
            for _ in range(shots):
                if opsec and counters:
                    opsec -= 1  # blocked, the block countered: one more OPSEC to stop it
                    counters -= 1
                if opsec:
                    opsec -= 1
                    continue
                if spare:
                    spare -= 1
                    continue
                shooter = seat
                break
            if shooter is not None:
                break
        if shooter is None:
            converting.append((forecast[0], a))
        else:
            broken[a] = shooter
    first = min(converting)[1] if converting else None
    return first, broken


def _loose_value(cat: Any, p: dict[str, Any], sets: list[str]) -> int:
    """What a player can pay without touching a complete set: bank and unfinished zones."""
    value = cat.value
    total = sum(value[c] for c in p["bank"])
    return total + sum(value[c] for colour, zone in p["zones"].items() if colour not in sets
                       for c in zone)


def _charge_of(cat: Any, p: dict[str, Any], cid: int) -> int:
    """What the charge card `cid` held by player `p` would demand of one opponent (0: not a
    charge, or a rent on colours it has no zone in). Surge is ignored."""
    key = cat.key[cid]
    if key == "finance_office":
        return 5
    if key == "roll_call":
        return 2
    if cat.kind[cid] != "rent":
        return 0
    colours = cat.colours[cid] or tuple(p["zones"])
    return max((rent_for(cat, p, c) for c in colours if c in p["zones"]), default=0)


def evaluate(state: dict[str, Any], me: int) -> float:
    result = state["result"]
    if result is not None:
        return 1.0 if result["winner"] == me else 0.0
    if EVAL == "learned":
        weights = evalfit.WEIGHTS if LEAF_WEIGHTS is None else tuple(LEAF_WEIGHTS)
        return evalfit.win_chances(state, weights).get(me, 0.0)
    first, broken = approach_forecast(state)
    if first is not None:
        return CONVERT_VALUE if first == me else 1.0 - CONVERT_VALUE
    o = Obs.from_state(state, me, legal=[])
    players = state["players"]
    scores = {s: strength(o, s, players[s]["hand"]) for s in o.order if players[s]["active"]}
    for victim, shooter in broken.items():
        scores[victim] -= 12.0 + 10.0  # the armed bonus and one set
        scores[shooter] += 5.0
    top = max(scores.values())
    mine = total = 0.0
    for s, sc in scores.items():
        w = math.exp(TEMPERATURE * (sc - top))
        total += w
        if s == me:
            mine = w
    return mine / total if total else 0.0


# ---- playouts -------------------------------------------------------------------------------

def policy(state: dict[str, Any], seat: int, me: int | None = None) -> dict[str, Any]:
    """The playout policy: the medium bot, reading a world this bot sampled itself, with
    `STYLE`'s weights for `me` (this bot) and the standard ones for everyone else. With
    `PLAYOUT_EXACT` it is `medium.choose_action` on that seat's view, move for move (a
    full-game playout then models medium opponents exactly but for the sampled cards)."""
    if state["phase"] == "respond" and state["players"][seat]["active"] \
            and owed_entry(state, seat) is not None and not responses(state, seat):
        # A payment: the medium bot weighs its own selection and reads the listed ones only
        # for their type, so the engine's bounded list of payments need not be built.
        legal = [{"type": "pay", "cards": []}, {"type": "scoop"}]
    else:
        legal = legal_actions(state, seat)
        plain = medium.plain_move(legal)
        if plain is not None:
            return plain
    o = Obs.from_state(state, seat, legal)
    with medium.playing(STYLE if seat == me else medium.STANDARD):
        if PLAYOUT_EXACT:
            return medium.decide(o, _TieBreak(state, seat))
        return medium.decide(o, rearrange=False)


class _TieBreak(random.Random):
    """medium's tie-break generator, seeded (as `medium.choose_action` seeds it) only when a tie
    needs it: hashing the seat's picture at every playout step cost about 15% of a playout."""

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        # Not Random.__init__: seeding it with 0 first was a tenth of the policy's own time,
        # and `randrange` seeds it before its first number anyway.
        self.gauss_next = None
        self._pending: tuple[dict[str, Any], int] | None = (state, seat)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if self._pending is not None:
            state, seat = self._pending
            self._pending = None
            self.seed(state_seed(state, seat, "medium"))
        return super().randrange(*args, **kwargs)


def state_seed(state: dict[str, Any], seat: int, salt: str = "") -> int:
    """`observe.seed_of(engine.view(state, seat), salt)` without building the view (it is
    called at every playout step)."""
    cat = catalogue_for(state)
    value = cat.value
    return seed_from({
        "salt": salt,
        "version": state["version"],
        "viewer": seat,
        "turn_number": state["turn_number"],
        "hand": list(state["players"][seat]["hand"]),
        "boards": [[len(p["hand"]), sum(value[c] for c in p["bank"]), net_worth(cat, p)]
                   for p in state["players"]],
        "deck": len(state["deck"]),
        "discard": len(state["discard"]),
    })


def _position_key(state: dict[str, Any]) -> str:
    """Two playouts in one world that reach the same position here go on identically (the
    engine's rng is part of the state and the playout policy is a function of the state; the
    exact policy's tie-breaks also read the version, i.e. how many moves led here)."""
    extra = [state["version"], state["turn_number"]] if PLAYOUT_EXACT else []
    return json.dumps([state["players"], state["deck"], state["discard"], state["turn"],
                       state["phase"], state["pending"], state["rng"], state["plays_left"],
                       *extra], separators=(",", ":"))


def rollout(world: dict[str, Any], me: int, action: dict[str, Any],
            seen: dict[str, float] | None = None, horizon: str | None = None
            ) -> tuple[float, int]:
    """Apply `action` for `me` in `world`, play on to the horizon (the end of this turn, the
    start of `me`'s next one, or with "game" the end of the game); (value, engine steps used).
    `seen` maps positions at the end of the current turn to their value in this world, so
    candidates that lead to the same end of turn share one continuation."""
    horizon = horizon or HORIZON
    state = apply(world, me, action).state
    start = world["turn_number"]
    steps = 1
    key = None
    cap = GAME_STEP_CAP if horizon == "game" else ROLLOUT_STEP_CAP
    while state["result"] is None and steps < cap:
        if state["turn_number"] > start:
            if horizon == "turn" or (horizon != "game" and state["turn"] == me):
                break
            if key is None and seen is not None:
                key = _position_key(state)
                if key in seen:
                    return seen[key], steps
        seat = to_decide(state)[0]
        state = apply(state, seat, policy(state, seat, me)).state
        steps += 1
    value = evaluate(state, me)
    if key is not None and seen is not None:
        seen[key] = value
    return value, steps


# ---- candidates -----------------------------------------------------------------------------

def _signature(o: Obs, a: dict[str, Any]) -> tuple:
    """Actions that are the same choice for the player (two 1M notes) share a signature."""
    name = o.cat.cards
    sig: list[Any] = [a["type"]]
    for k in ("card", "take", "give"):
        if k in a:
            sig.append(name[a[k]].name)
    for k in ("colour", "target", "answer"):
        if k in a:
            sig.append(a[k])
    return tuple(sig)


def candidates(o: Obs, rng: random.Random) -> list[dict[str, Any]]:
    legal = [a for a in o.legal if a["type"] != "scoop"]
    if not legal:
        return o.legal[:1]
    types = {a["type"] for a in legal}
    if "respond" in types:
        answers = [a for a in legal if a["type"] == "respond"]
        first = medium.respond(o, answers)
        return [first] + [a for a in answers if a != first]
    if "pay" in types:
        amount = (o.pending or {}).get("amount") or 0
        first = {"type": "pay", "cards": medium.payment(o, amount)[0]}
        payee = (o.pending or {}).get("source")
        listed = sorted((a for a in legal if a["type"] == "pay"),
                        key=lambda a: sum(medium.card_pay_cost(o, c, payee) for c in a["cards"]))
        out = [first]
        for a in listed:
            if len(out) >= PAY_CANDIDATES:
                break
            if sorted(a["cards"]) != sorted(first["cards"]):
                out.append(a)
        return out
    if "discard" in types:
        first = medium.decide(o, rng)
        return [first, *discard_alternatives(o, first["cards"])] if SEARCH_DISCARDS else [first]
    first = medium.decide(o, rng)
    scored = medium.play_scores(o)
    scored.sort(key=lambda sa: -sa[0])
    out: list[dict[str, Any]] = [first]
    seen: set[tuple] = {_signature(o, first)}
    for score, a in scored:
        if score <= medium.NEG / 2:
            continue
        sig = _signature(o, a)
        if sig in seen:
            continue
        seen.add(sig)
        out.append(a)
        if len(out) >= CANDIDATES:
            break
    if not any(a["type"] == "end_turn" for a in out):
        out.append({"type": "end_turn"})
    return out


def discard_alternatives(o: Obs, chosen: list[int]) -> list[dict[str, Any]]:
    """Discard selections near the medium bot's `chosen`: the same number of cards from the
    hand's lowest keep values plus two, cheapest (by keep value) first. Cards with one name
    are one choice, so two 1M notes never make two candidates."""
    count = len(chosen)
    ranked = sorted(o.hand, key=lambda c: (medium.keep_value(o, c), o.cat.value[c], c))
    name = o.cat.cards
    seen = {tuple(sorted(name[c].name for c in chosen))}
    combos = sorted(itertools.combinations(ranked[:count + 2], count),
                    key=lambda cs: sum(medium.keep_value(o, c) for c in cs))
    out: list[dict[str, Any]] = []
    for cs in combos:
        sig = tuple(sorted(name[c].name for c in cs))
        if sig in seen:
            continue
        seen.add(sig)
        out.append({"type": "discard", "cards": sorted(cs)})
        if len(out) + 1 >= DISCARD_CANDIDATES:
            break
    return out


# ---- the search -----------------------------------------------------------------------------

def search(view: dict[str, Any], budget: float, steps: int | None = None
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(chosen action, figures: candidates, worlds, steps, seconds, means). `steps` overrides
    the step budget that `budget` implies; `budget` stays the wall-clock deadline."""
    started = time.perf_counter()
    deadline = started + budget
    step_budget = int(budget * STEPS_PER_SECOND) if steps is None else steps
    seed = seed_of(view, "hard")
    o = Obs.from_view(view)
    me = o.me
    with medium.playing(STYLE):
        cands = candidates(o, random.Random(seed))
    info: dict[str, Any] = {"candidates": len(cands), "worlds": 0, "steps": 0}
    if len(cands) == 1:
        info["seconds"] = time.perf_counter() - started
        return cands[0], info
    horizon = horizon_for(o)
    index = list(range(len(cands)))  # the searched candidates' places in `cands`
    used = 0
    if horizon == "game" and PRESELECT_STEPS and len(cands) > 2:
        # Full-game playouts are too dear to spread over every candidate: a cheap one-turn
        # search names the best challenger (by its mean, no gate), and the game playouts
        # then decide between it and the medium move alone, on all the remaining budget.
        values, looked, used = _playouts(view, me, cands, "turn",
                                         min(PRESELECT_STEPS, step_budget), deadline, seed)
        means = [sum(v) / len(v) if v else -1.0 for v in values]
        challenger = max(range(len(cands)), key=lambda i: (means[i], -i))
        info.update(preselected=challenger, preselect_worlds=looked)
        if challenger == 0:
            info.update(steps=used, seconds=time.perf_counter() - started)
            return cands[0], info
        index = [0, challenger]
    values, worlds, spent = _playouts(view, me, [cands[i] for i in index], horizon,
                                      step_budget - used, deadline, seed)
    best = index[pick(values)]
    info.update(worlds=worlds, steps=used + spent, seconds=time.perf_counter() - started,
                means={index[i]: round(sum(v) / len(v), 3) for i, v in enumerate(values) if v})
    return cands[best], info


def _playouts(view: dict[str, Any], me: int, cands: list[dict[str, Any]], horizon: str,
              step_budget: int, deadline: float, seed: int
              ) -> tuple[list[list[float]], int, int]:
    """Every live candidate played out in world after sampled world, with successive halving,
    until `step_budget` engine steps or `deadline`: (values per candidate, worlds, steps)."""
    alive = list(range(len(cands)))
    values: list[list[float]] = [[] for _ in cands]
    used = 0
    worlds = 0
    next_cut = FIRST_CUT
    out_of_time = False
    while used < step_budget and not out_of_time:
        world = sample_world(view, random.Random(seed + 7919 * (worlds + 1)),
                             infer=OPPONENT_MODEL, prior=HAND_PRIOR)
        got: list[tuple[int, float]] = []
        seen: dict[str, float] = {}
        for i in alive:
            value, spent = rollout(world, me, cands[i], seen, horizon)
            used += spent
            got.append((i, value))
            if time.perf_counter() > deadline:
                out_of_time = True
                break
        if out_of_time:
            break  # an unfinished round would compare candidates on different worlds
        for i, value in got:
            values[i].append(value)
        worlds += 1
        if worlds >= next_cut and len(alive) > 2:
            # Successive halving; the medium bot's own choice (index 0) always stays.
            ranked = sorted(alive, key=lambda i: (-sum(values[i]) / len(values[i]), i))
            keep = set(ranked[: max(2, (len(alive) + 1) // 2)]) | {0}
            alive = sorted(keep)
            next_cut *= 2
    return values, worlds, used


def horizon_for(o: Obs) -> str:
    """The playout horizon of this decision (`HORIZON`; "adaptive" picks one per decision)."""
    if HORIZON != "adaptive":
        return HORIZON
    if any(o.armed[s] for s in o.order if o.active[s]) or \
            o.sets(o.me) >= o.target_sets() - 1:
        return "round"
    return "turn"


def pick(values: list[list[float]]) -> int:
    """The candidate to play: the best mean, but only if it beats the medium bot's own choice
    (index 0) clearly on the worlds both were played in; otherwise the medium choice. Noise
    alone then never pulls the search away from a sound heuristic move."""
    if not values[0]:
        return 0
    means = [sum(v) / len(v) if v else -1.0 for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    n = len(values[best])
    diffs = [values[best][w] - values[0][w] for w in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if mean > MIN_GAIN and mean > CONFIDENCE * math.sqrt(var / n):
        return best
    return 0


def choose_action(view: dict[str, Any], budget: float | None = None, steps: int | None = None
                  ) -> dict[str, Any]:
    """The hard bot's move. `steps` overrides the step budget, as in `search`."""
    o = Obs.from_view(view)
    # Answers and discards with nothing to weigh, and turns with no play left, need no search.
    if o.phase == "play" and o.plays_left == 0:
        with medium.playing(STYLE):
            return medium.decide(o, random.Random(seed_of(view, "hard")))
    return search(view, DEFAULT_BUDGET if budget is None else budget, steps)[0]
