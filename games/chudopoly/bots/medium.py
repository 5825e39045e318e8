"""The medium bot: a heuristic player that reads only its seat's knowledge (`Obs`).

Every choice is an estimate in one unit, "points", where a completed set is worth about 10 and
1M in a bank about 0.5:

- Plays: each listed play is scored by what it gains (set progress, money collected, damage to
  a threatening opponent) minus what the card is worth kept in hand; the best one is played, and
  the turn ends when nothing scores above zero. It builds toward sets, banks money (more eagerly
  when its bank is thin), charges whoever can pay the most, and saves OPSEC, Inspector General
  and CHUD for big hits.
- Final approach (REFERENCE §8): a play that drops an armed opponent below the winning set count
  outscores everything else, and while anyone is armed it never banks Inspector General or CHUD.
- Answers: OPSEC only against a hit worth it (Inspector General, a CHUD or a steal from a
  complete set, a large charge, anything that would break its own approach), with a lower bar
  when it holds more than one OPSEC; as the source it counters a block of a big play.
- Payments: the cheapest selection by a knapsack over what each card is worth to it (small notes
  first, loose properties before upgrades, complete sets last), built by itself and checked by
  the engine's payment rule, not just the bounded list the view offers.
- Discards: the cards least worth keeping.
- Free rearranges: only a wild move or swap that strictly raises its board score, and at most
  `Style.move_cap` per turn, so a turn can never loop.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from games.chudopoly.engine.board import SET_SIZE
from games.chudopoly.engine.legal import listed_runs
from games.chudopoly.engine.recent import Recent
from games.chudopoly.engine.state import HAND_LIMIT, REARRANGE_BUDGET
from games.chudopoly.engine.view import unlisted_payments

from .observe import LazyRng, Obs, draws_nothing

OPSEC_TRIES = {"rent", "finance_office", "roll_call", "midnight_requisition", "tdy_orders",
               "inspector_general", "chud"}
NEG = -1e9


@dataclass(frozen=True)
class Style:
    """The weights of the heuristic. The medium level plays `STANDARD`; the hard bot plays its
    own seat with `hard.STYLE` (weights tuned against medium opponents) while its playouts keep
    modelling every other seat as a standard medium bot."""

    move_cap: int = 4  # free rearranges a bot may spend per turn
    money: float = 0.5  # points per 1M
    bank_cushion: float = 10.0  # a bank below this many M is "exposed": banking gets urgent
    bank_urgency: float = 1.5
    bank_base: float = 0.6  # what banking 1M is worth, in `money`, with a full cushion
    place_base: float = 2.5  # placing any property, on top of its set progress
    wild_alone: float = 1.0  # a rainbow wild placed where it finishes nothing: worth this less
    opsec_bar: tuple[float, float] = (6.0, 3.5)  # damage worth an OPSEC, one / several in hand
    opsec_keep: float = 6.0  # what an OPSEC in hand is worth
    property_keep: float = 4.0  # a property (or wild) in hand
    steal_keep: float = 2.5  # a Midnight Requisition in hand
    ig_keep: float = 7.0  # an Inspector General in hand while nobody is armed
    chud_keep: tuple[float, float] = (4.5, 9.0)  # a CHUD's, and when an opponent is one set short
    charge_keep: float = 0.3  # share of a charge card's keep value its play gives up
    arm_bonus: float = 12.0  # reaching the winning set count, beyond the set itself
    early_set: float = 0.0  # completing a set that does not arm (a target for Inspector General)
    arm_caution: float = 0.0  # hold the set that would arm while the odds of being shot down
    # exceed this (0: never hold)
    threat_scale: float = 0.8  # how much more an opponent's damage counts per set it holds
    charge_property: float = 2.0  # extra worth per 1M a charge must take as properties
    deny_arming: float = 0.0  # taking from the zone an opponent is one card from arming with
    pcs_gain: float = 3.0  # PCS Orders with plays to spare
    hoard: float = 0.3  # extra worth of banking 1M while armed (to pay without breaking sets)
    hoard_near: float = 0.0  # and while one set short of arming


STANDARD = Style()
_style: ContextVar[Style] = ContextVar("medium_style", default=STANDARD)


def style_from(overrides: dict[str, Any], base: Style = STANDARD) -> Style:
    """`base` with some weights replaced, e.g. from JSON (lists become the tuples they are)."""
    return dataclasses.replace(base, **{k: tuple(v) if isinstance(v, list) else v
                                        for k, v in overrides.items()})


@contextmanager
def playing(style: Style) -> Iterator[None]:
    """Decide with `style`'s weights inside the block (per thread and task, so two tables
    deciding at once never see each other's weights)."""
    token = _style.set(style)
    try:
        yield
    finally:
        _style.reset(token)


# ---- board scoring --------------------------------------------------------------------------

def zone_score(colour: str, n: int, complete: bool, rent: int = 0) -> float:
    if n <= 0:
        return 0.0
    if complete:
        return 10.0 + 0.25 * rent
    size = SET_SIZE[colour]
    return 7.0 * (min(n, size) / size) ** 2


# Answers about one seat's board that hold for as long as its board does (zone scores,
# threat, what receiving or losing a card is worth), kept across decisions: a shared view
# (engine.view(..., shared=True)) or a state shows an unchanged board with the same zones
# dicts, so the other seats' answers carry over from decision to decision. The key holds
# everything else they read (weights, armed, whether the seat is the decider, the target).
_SEAT_MEMOS: Recent[tuple, tuple[Any, ...]] = Recent(1024)


def seat_memo(o: Obs, seat: int) -> dict[Any, float]:
    memos = o._seats
    memo = memos.get(seat)
    if memo is None:
        zones, ups, st, cat = o.zones[seat], o.upgrades[seat], _style.get(), o.cat
        key = (id(zones), id(ups), id(st), id(cat), o.pure, o.armed[seat], seat == o.me,
               o.target_sets())
        hit = _SEAT_MEMOS.new.get(key) or _SEAT_MEMOS.get(key)
        # Held objects keep their ids from being reused while they are here.
        if hit is not None and hit[0] is zones and hit[1] is ups and hit[2] is st \
                and hit[3] is cat:
            memo = hit[4]
        else:
            memo = {}
            _SEAT_MEMOS.put(key, (zones, ups, st, cat, memo))
        memos[seat] = memo
    return memo


def seat_zone_score(o: Obs, seat: int, colour: str) -> float:
    memo = o._seats.get(seat) or seat_memo(o, seat)  # the call only on first use
    hit = memo.get(colour)  # keys: a colour (zone score), "threat", ("recv", ...), ("loss", ...)
    if hit is None:
        n = o.zone_len(seat, colour)
        hit = memo[colour] = zone_score(colour, n, o.is_set(seat, colour),
                                        o.rent(seat, colour))
    return hit


def board_score(o: Obs, seat: int) -> float:
    return sum(seat_zone_score(o, seat, c) for c in o.zones[seat])


def threat(o: Obs, seat: int) -> float:
    """How much hurting `seat` is worth, per point of damage."""
    memo = o._seats.get(seat) or seat_memo(o, seat)  # the call only on first use
    hit = memo.get("threat")
    if hit is None:
        hit = memo["threat"] = _threat(o, seat)
    return hit


def _threat(o: Obs, seat: int) -> float:
    if o.armed[seat]:
        return 2.5
    target = max(1, o.target_sets() - 1)
    return 0.5 + _style.get().threat_scale * min(1.0, o.sets(seat) / target)


def _complete_after(o: Obs, seat: int, colour: str, zone: list[int]) -> bool:
    if len(zone) < SET_SIZE[colour]:
        return False
    return not o.pure or any(not o.cat.rainbow[c] for c in zone)


def receive_gain(o: Obs, seat: int, cid: int, preferred: str | None) -> float:
    """Board-score gain for `seat` receiving `cid` involuntarily (engine receipt order)."""
    # Once per decision: a steal or swap is scored for every listed target and card, and
    # each of those asks the same few gains again.
    memo = o._seats.get(seat) or seat_memo(o, seat)  # the call only on first use
    key = ("recv", cid, preferred)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _receive_gain(o, seat, cid, preferred)
    return hit


def _receive_gain(o: Obs, seat: int, cid: int, preferred: str | None) -> float:
    cat = o.cat
    zones = o.zones[seat]
    legal = cat.colours[cid]
    # The first colour with room decides (the loop below): usually the preferred one, or a
    # property's only colour, found without sorting.
    first = preferred if preferred in legal else legal[0] if len(legal) == 1 else None
    if first is not None:
        zone = zones.get(first, [])
        if len(zone) < SET_SIZE[first]:
            complete = len(zone) + 1 >= SET_SIZE[first] and (
                not o.pure or not cat.rainbow[cid] or any(not cat.rainbow[c] for c in zone))
            before = seat_zone_score(o, seat, first)
            after = zone_score(first, len(zone) + 1, complete, o.rent(seat, first))
            if complete and not o.is_set(seat, first):
                after += _set_count_bonus(o, seat, +1)
            return after - before
        if len(legal) == 1:
            return _style.get().money * cat.value[cid]
    order = [preferred] if preferred in legal else []
    order += [c for c in sorted(legal, key=lambda c: -len(zones.get(c, ()))) if c != preferred]
    for colour in order:
        zone = zones.get(colour, [])
        if len(zone) < SET_SIZE[colour]:
            new = [*zone, cid]
            before = seat_zone_score(o, seat, colour)
            after = zone_score(colour, len(new), _complete_after(o, seat, colour, new),
                               o.rent(seat, colour))
            if _complete_after(o, seat, colour, new) and not o.is_set(seat, colour):
                after += _set_count_bonus(o, seat, +1)
            return after - before
    return _style.get().money * cat.value[cid]


def remove_loss(o: Obs, seat: int, cid: int) -> float:
    """Board-score loss for `seat` losing `cid` from its board (upgrades of a broken set go to
    the bank: their rent is lost, their value kept)."""
    memo = o._seats.get(seat) or seat_memo(o, seat)  # the call only on first use
    key = ("loss", cid)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _remove_loss(o, seat, cid)
    return hit


def _remove_loss(o: Obs, seat: int, cid: int) -> float:
    colour = o.colour_of(seat, cid)
    if colour is None:
        return 0.0
    full = o.zones[seat][colour]
    left = len(full) - full.count(cid)
    before = seat_zone_score(o, seat, colour)
    if left < SET_SIZE[colour]:  # short of a set either way: no need to list what is left
        complete = False
    else:
        complete = _complete_after(o, seat, colour, [c for c in full if c != cid])
    rent = o.rent(seat, colour) if complete else 0
    after = zone_score(colour, left, complete, rent)
    loss = before - after
    if o.is_set(seat, colour) and not complete:
        loss += _set_count_bonus(o, seat, -1)
    elif ((deny := _style.get().deny_arming) and left + 2 == SET_SIZE[colour]
          and o.sets(seat) == o.target_sets() - 1):
        # One card short of the set that would arm them: taking from it holds them back.
        loss += deny
    return loss


def _set_count_bonus(o: Obs, seat: int, delta: int) -> float:
    """Extra worth of arming (or cost of being disarmed) beyond the set itself."""
    n = o.sets(seat)
    target = o.target_sets()
    if delta > 0 and n + 1 >= target > n:
        return _style.get().arm_bonus if seat == o.me else 12.0
    if delta < 0 and n >= target > n - 1:
        return 25.0 if o.armed[seat] else 12.0
    return 0.0


def breaks_approach(o: Obs, seat: int, colour: str | None) -> bool:
    """Whether taking a card from `colour` drops armed `seat` below the winning count."""
    return (colour is not None and o.armed[seat] and o.is_set(seat, colour)
            and o.sets(seat) - 1 < o.target_sets())


# ---- what cards in hand are worth keeping ---------------------------------------------------

def keep_value(o: Obs, cid: int) -> float:
    key = ("keep", cid)
    hit = o._memo.get(key)
    if hit is None:
        hit = o._memo[key] = _keep_value(o, cid)
    return hit


def _keep_value(o: Obs, cid: int) -> float:
    st = _style.get()
    cat = o.cat
    key = cat.key[cid]
    kind = cat.kind[cid]
    value = cat.value[cid]
    if kind == "money":
        return 0.2 + st.money * value * 0.5
    if kind in ("property", "wild"):
        return st.property_keep
    if kind == "rent":
        held = [c for c in cat.colours[cid] if c in o.zones[o.me]]
        if not held:
            return 0.3
        return 0.5 + 0.3 * max(o.rent(o.me, c) for c in held)
    if key == "opsec":
        return st.opsec_keep
    if key == "inspector_general":
        return 40.0 if o.someone_armed() else st.ig_keep
    if key == "chud":
        if o.someone_armed():
            return 30.0
        near = o.memo("near", lambda: any(o.sets(s) >= o.target_sets() - 1
                                          for s in o.opponents()))
        return st.chud_keep[1] if near else st.chud_keep[0]
    if key == "midnight_requisition":
        return st.steal_keep
    if key == "upgrade":
        return 1.5 if o.set_colours(o.me) else 1.0
    if key == "foc":
        return 1.5 if o.upgrades[o.me] else 1.0
    return _FIXED_KEEP.get(key, 1.0)


_FIXED_KEEP = {"tdy_orders": 1.5, "finance_office": 2.0, "roll_call": 1.2, "pcs_orders": 1.0,
               "surge_ops": 0.6}


# ---- plays on one's own turn ----------------------------------------------------------------

def _charge_gain(o: Obs, target: int, amount: int) -> float:
    """Expected worth of charging `target` `amount`: money collected, plus the damage when the
    payment has to come out of a complete set (an armed target's approach breaks)."""
    # Rents list every colour and target, and a turn scores them again at each decision: kept
    # with the target's board answers, valid while its bank is the same object (held).
    memo = o._seats.get(target) or seat_memo(o, target)
    key = ("charge", amount)
    hit = memo.get(key)
    # A shared view shows one ids list per bank content, but an empty bank as a new list.
    bank = o.bank[target] or _NO_BANK
    if hit is not None and hit[0] is bank:
        return hit[1]
    gain = _charge_gain_of(o, target, amount)
    memo[key] = (bank, gain)  # type: ignore[assignment]
    return gain


def _charge_gain_of(o: Obs, target: int, amount: int) -> float:
    if amount <= 0:
        return 0.0
    st = _style.get()
    payable = o.payable(target)
    got = min(amount, payable)
    gain = st.money * got
    if st.charge_property:
        # What the bank cannot cover comes as properties, onto this bot's board.
        gain += st.charge_property * max(0, got - o.bank_total(target))
    loose = o.loose_payable(target)
    if amount > loose and payable > loose:
        gain += 4.0 * threat(o, target)
        if o.armed[target] and o.sets(target) - 1 < o.target_sets():
            gain += 20.0
    return gain


def _rent_gain(o: Obs, action: dict[str, Any], multiplier: int) -> float:
    colour = action["colour"]
    amount = o.rent(o.me, colour) * multiplier
    cat = o.cat
    if cat.key[action["card"]] == "rent_any":
        return _charge_gain(o, action["target"], amount)
    return sum(_charge_gain(o, t, amount) for t in o.opponents())


def _steal_gain(o: Obs, target: int, take: int) -> float:
    # Listed per card in hand and scored again at each decision of a turn: kept with the
    # target's board answers, valid while mine are the same too (held).
    me = o.me
    mine = o._seats.get(me) or seat_memo(o, me)
    memo = o._seats.get(target) or seat_memo(o, target)
    key = ("steal", take, me)
    hit = memo.get(key)
    if hit is not None and hit[0] is mine:
        return hit[1]
    gain = _steal_gain_of(o, target, take)
    memo[key] = (mine, gain)  # type: ignore[assignment]
    return gain


def _steal_gain_of(o: Obs, target: int, take: int) -> float:
    colour = o.colour_of(target, take)
    gain = receive_gain(o, o.me, take, colour) + threat(o, target) * remove_loss(o, target, take)
    if breaks_approach(o, target, colour):
        gain += 30.0
    return gain


def _action_gain(o: Obs, a: dict[str, Any]) -> float:
    st = _style.get()
    cat = o.cat
    cid = a["card"]
    key = cat.key[cid]
    keep = keep_value(o, cid)
    if key == "tdy_orders":  # the commonest: listed per target, card taken and card given
        return _tdy_gain(o, a, keep)
    if key in ("rent_pair", "rent_any"):
        return _rent_gain(o, a, 2 ** o.surge) - keep * st.charge_keep
    if key == "pcs_orders":
        if draws_nothing(o.deck_count, len(o.discard)):
            return NEG
        if o.rules.get("passGoRestartsTurn"):
            return 8.0
        # Two more cards, worth less when they would only be discarded at the end of the turn.
        overflow = max(0, len(o.hand) + 1 - (o.plays_left - 1) - HAND_LIMIT)
        return (st.pcs_gain if o.plays_left >= 2 else 1.2) - 1.0 * overflow
    if key == "surge_ops":
        if o.plays_left < 2:
            return NEG
        best = 0.0
        for b in o.legal:
            if b.get("type") == "action" and b.get("card") != cid and \
                    cat.kind[b["card"]] == "rent":
                best = max(best, _rent_gain(o, b, 2 ** (o.surge + 1))
                           - _rent_gain(o, b, 2 ** o.surge))
        return best - keep if best > 1.5 else NEG
    if key == "finance_office":
        return _charge_gain(o, a["target"], 5) - keep * st.charge_keep
    if key == "roll_call":
        return sum(_charge_gain(o, t, 2) for t in o.opponents()) - keep * st.charge_keep
    if key in ("midnight_requisition", "chud"):
        return _steal_gain(o, a["target"], a["take"]) - keep
    if key == "inspector_general":
        t, colour = a["target"], a["colour"]
        zone = o.zones[t][colour]
        gain = 10.0 + 0.25 * o.rent(t, colour) + sum(st.money * cat.value[c] for c in zone) * 0.2
        gain *= 1.0 + threat(o, t)
        if o.sets(o.me) + 1 >= o.target_sets() > o.sets(o.me):
            gain += st.arm_bonus
        if breaks_approach(o, t, colour):
            gain += 30.0
        return gain - keep
    if key == "upgrade":
        return 0.3 * HOUSE + 0.8
    if key == "foc":
        return 0.3 * FOC + 0.8
    return NEG


HOUSE, FOC = 3, 4


def _tdy_gain(o: Obs, a: dict[str, Any], keep: float) -> float:
    """A TDY Orders swap's score from its parts (`play_scores` inlines the same sum)."""
    t = a["target"]
    takes, gives = _tdy_parts(o, t)
    taking = takes.get(a["take"])
    if taking is None:
        taking = takes[a["take"]] = _tdy_take(o, t, a["take"])
    giving = gives.get(a["give"])
    if giving is None:
        giving = gives[a["give"]] = _tdy_give(o, t, a["give"])
    received, their_loss, their_threat = taking
    my_loss, their_gain = giving
    gain = received - my_loss
    gain += their_threat * their_loss
    gain -= their_threat * their_gain * 0.7
    return gain - keep


def _tdy_parts(o: Obs, t: int) -> tuple[dict[int, tuple[float, float, float]],
                                        dict[int, tuple[float, float]]]:
    """The TDY Orders parts against `t`: {card taken: `_tdy_take`}, {card given: `_tdy_give`},
    filled as the swaps are scored. They read only `t`'s board answers and mine: kept with
    `t`'s, valid while mine are the same too (held), so the decisions of a turn share them."""
    me = o.me
    mine = o._seats.get(me) or seat_memo(o, me)
    memo = o._seats.get(t) or seat_memo(o, t)
    key = ("tdy", me)
    hit = memo.get(key)
    if hit is None or hit[0] is not mine:
        hit = memo[key] = (mine, {}, {})  # type: ignore[assignment]
    return hit[1], hit[2]


def _tdy_take(o: Obs, t: int, take: int) -> tuple[float, float, float]:
    """A TDY Orders swap's parts that read only the card taken: what receiving it gains me,
    what losing it costs `t`, and `t`'s threat (kept per decision: each is listed once per
    card given)."""
    theirs = o.colour_of(t, take)
    return receive_gain(o, o.me, take, theirs), remove_loss(o, t, take), threat(o, t)


def _tdy_give(o: Obs, t: int, give: int) -> tuple[float, float]:
    """A TDY Orders swap's parts that read only the card given: what losing it costs me, and
    what receiving it gains `t`."""
    mine = o.colour_of(o.me, give)
    return remove_loss(o, o.me, give), receive_gain(o, t, give, mine)


def _place_gain(o: Obs, cid: int, colour: str) -> float:
    st = _style.get()
    zone = [*o.zones[o.me].get(colour, []), cid]
    before = seat_zone_score(o, o.me, colour)
    complete = _complete_after(o, o.me, colour, zone)
    after = zone_score(colour, len(zone), complete, o.rent(o.me, colour))
    gain = after - before
    if complete and not o.is_set(o.me, colour):
        gain += _set_count_bonus(o, o.me, +1)
        if o.sets(o.me) + 1 < o.target_sets():
            gain += st.early_set
        if st.arm_caution and o.sets(o.me) + 1 == o.target_sets() and not _race_on(o) \
                and shot_down_odds(o) > st.arm_caution:
            return NEG
    # A rainbow wild on its own is weak: hold it for a zone it will finish.
    if o.cat.rainbow[cid] and not complete:
        return gain - st.wild_alone
    # Every property has to be placed to count at all, so placing one is worth a base amount
    # on top of its progress.
    return gain + st.place_base


def _race_on(o: Obs) -> bool:
    """Someone else is armed or one set short: no time to wait."""
    return any(o.armed[s] or o.sets(s) >= o.target_sets() - 1 for s in o.opponents())


def shot_down_odds(o: Obs) -> float:
    """The chance that, once armed, more opponents hold a breaker (Inspector General or CHUD)
    than this seat holds OPSEC: card counting over what the seat has not seen."""
    def compute() -> float:
        key = o.cat.key
        breakers = {c for c in range(o.cat.size) if key[c] in ("inspector_general", "chud")}
        seen = set(o.hand) | set(o.discard)
        for s in range(len(o.bank)):
            seen.update(o.bank[s])
        unseen_breakers = len(breakers - seen)
        unseen = o.deck_count + sum(o.hand_count[s] for s in o.opponents())
        if unseen_breakers <= 0 or unseen <= 0:
            return 0.0
        opsec = sum(1 for c in o.hand if key[c] == "opsec")
        dist = [1.0]  # dist[k] = chance that k opponents can shoot
        for s in o.opponents():
            h = min(unseen, o.hand_count[s] + 2)
            none = 1.0
            for i in range(h):
                none *= max(0.0, (unseen - unseen_breakers - i) / (unseen - i))
            p = 1.0 - none
            nxt = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nxt[k] += q * (1 - p)
                nxt[k + 1] += q * p
            dist = nxt
        return sum(q for k, q in enumerate(dist) if k > opsec)

    return o.memo("shot_odds", compute)


def _bank_context(o: Obs) -> tuple[bool, float, float, bool]:
    st = _style.get()
    exposed = max(0.0, st.bank_cushion - o.bank_total(o.me)) / st.bank_cushion
    hoard = st.hoard if o.armed[o.me] else \
        st.hoard_near if o.sets(o.me) + 1 == o.target_sets() else 0.0
    return o.someone_armed(), exposed, hoard, len(o.hand) > HAND_LIMIT


def _bank_gain(o: Obs, cid: int) -> float:
    return _bank_score(o, cid, _bank_terms(o), _style.get())


def _bank_terms(o: Obs) -> tuple[bool, float, float, bool]:
    """What banking reads of the decision (`_bank_context`), with what the gain per 1M of bank
    value is multiplied by in place of the exposure: the same each time a card is banked."""
    hit = o._memo.get("bankterms")
    if hit is None:
        st = _style.get()
        armed, exposed, hoard, overflow = _bank_context(o)
        hit = o._memo["bankterms"] = (armed, st.bank_base + st.bank_urgency * exposed, hoard,
                                      overflow)
    return hit


def _bank_score(o: Obs, cid: int, terms: tuple[bool, float, float, bool], st: Style
                ) -> float:
    cat = o.cat
    armed, rate, hoard, overflow = terms
    if armed and cat.key[cid] in ("inspector_general", "chud"):
        return NEG
    value = cat.value[cid]
    gain = st.money * value * rate
    gain += hoard * value  # armed (or about to be): cash pays charges without breaking sets
    if overflow:
        gain += 1.0
    if cat.kind[cid] == "money":
        return gain + 1.0
    return gain - keep_value(o, cid)


def _move_gain(o: Obs, a: dict[str, Any]) -> float:
    if o.rearranges_left <= REARRANGE_BUDGET - _style.get().move_cap:
        return NEG
    me = o.me
    memo = o._seats.get(me) or seat_memo(o, me)
    return _move_score(o, a, memo)


def _move_score(o: Obs, a: dict[str, Any], memo: dict[Any, Any]) -> float:
    """A free rearrange's score, the moves cap aside. What it does to the board is an answer
    about the board, kept with the seat's other answers (`memo`) while its board is
    unchanged: the score itself when the board alone decides it, else the rows, as only the
    refill bonus reads the hand."""
    key = ("move", a["card"], a["colour"]) if a["type"] == "move" else ("swap", *a["cards"])
    rows = memo.get(key)
    if rows is None:
        rows = _move_rows(o, a)
        memo[key] = rows if any(refill is not None for _, _, refill in rows) \
            else _move_total(o, rows)
    if rows.__class__ is float:
        return rows
    return _move_total(o, rows)


def _move_total(o: Obs, rows: tuple[tuple[float, float, str | None], ...]) -> float:
    if not rows:
        return NEG
    before = 0.0
    after = 0.0
    fixed = None
    for zone_before, zone_after, refill in rows:
        before += zone_before
        after += zone_after
        if refill is not None:
            if fixed is None:
                fixed = _fixed_in_hand(o)
            if (refill,) in fixed:
                after += 3.0
    gain = after - before
    return gain - 0.5 if gain > 0.5 else NEG


# A rearrange this bot never makes (an upgrade move): its `_move_rows`, empty.
_NO_MOVE: tuple[tuple[float, float, str | None], ...] = ()


def _move_rows(o: Obs, a: dict[str, Any]) -> tuple[tuple[float, float, str | None], ...]:
    """Per zone the rearrange touches: its score before and after, and its colour when moving
    a wild off it makes room that a fixed property of that colour could refill (else None)."""
    zones = o.zones[o.me]
    if a["type"] == "move":
        cid, dest = a["card"], a["colour"]
        src = o.colour_of(o.me, cid)
        if src is None:
            return _NO_MOVE  # an upgrade move: never needed by this bot
        after_zones = {src: [c for c in zones[src] if c != cid],
                       dest: [*zones.get(dest, ()), cid]}
    else:
        x, y = a["cards"]
        cx, cy = o.colour_of(o.me, x), o.colour_of(o.me, y)
        if cx is None or cy is None:
            return _NO_MOVE
        after_zones = {cx: [y if c == x else c for c in zones[cx]],
                       cy: [x if c == y else c for c in zones[cy]]}
    rows = []
    for c, zone in after_zones.items():
        complete = _complete_after(o, o.me, c, zone)
        # Moving a wild off a zone the hand can refill with a fixed property is worth the
        # placing it allows (`_move_gain` asks the hand).
        refill = c if len(zone) < SET_SIZE[c] <= len(zones.get(c, ())) else None
        rows.append((seat_zone_score(o, o.me, c),
                     zone_score(c, len(zone), complete, o.rent(o.me, c) if complete else 0),
                     refill))
    return tuple(rows)


def _fixed_in_hand(o: Obs) -> set[tuple[str, ...]]:
    """The colour tuples of the fixed properties in hand (a wild move may make room for one)."""
    hit = o._memo.get("fixed_in_hand")
    if hit is None:
        kind, colours = o.cat.kind, o.cat.colours
        hit = o._memo["fixed_in_hand"] = {colours[h] for h in o.hand if kind[h] == "property"}
    return hit


# Card plays whose scores read only the boards' answers (this seat's and each opponent's):
# steals, swaps and seizures; charges read the opponents' banks and the surge too. Not PCS
# Orders or Surge Ops (the hand, the piles, the plays left, the other listed plays), nor a
# banking (the bank, the hand's size).
_BOARDS_ONLY = frozenset(("midnight_requisition", "chud", "tdy_orders", "inspector_general",
                          "upgrade", "foc"))
_CHARGES = frozenset(("rent_pair", "rent_any", "finance_office", "roll_call"))

# A turn's kept card plays with their scores (`play_scores`): (id(my board answers),
# id(the plays)) -> (my board answers, the plays, the objects `_others` reads, its ids,
# the scores). Everything is held, so the ids are not reused while here. The scores are
# kept as floats, paired with the plays again when found: a kept (score, play) pair per play
# was that much more for the garbage collector to walk in a fresh game.
_RUN_SCORES: Recent[tuple[int, int], tuple[Any, ...]] = Recent(1024)


def _others(o: Obs, charges: bool) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """What a kept card play's score reads beyond my board answers: each opponent's board
    answers, and for a charge its bank and the surge (objects, then their ids)."""
    seats = o._seats
    held: list[Any] = []
    for t in o.opponents():
        held.append(seats.get(t) or seat_memo(o, t))
        if charges:
            # A shared view shows one ids list per bank content, but an empty bank as a new
            # list each time.
            held.append(o.bank[t] or _NO_BANK)
    return tuple(held), (o.surge if charges else -1, *map(id, held))


_NO_BANK: tuple[int, ...] = ()


def play_scores(o: Obs, rearrange: bool = True) -> list[tuple[float, dict[str, Any]]]:
    """Every listed play with its score; `rearrange=False` skips free moves and swaps (the
    hard bot's playouts, where they are rare and cost time).

    A shared view lists a turn's plays card by card as lists kept while the boards are the
    same (`legal.listed_runs`): a card's plays whose scores read only the boards' answers,
    the opponents' banks and the surge are scored once per such list and kept with it and
    with my board answers (`_RUN_SCORES`), so the decisions of a turn that leave the boards
    as they were score them once. Everything else is scored as listed (`_scores`)."""
    runs = listed_runs(o.legal)
    if runs is None:
        return _scores(o, o.legal, rearrange)
    st = _style.get()
    card_key = o.cat.key
    mine = o._seats.get(o.me) or seat_memo(o, o.me)
    boards: tuple[tuple[Any, ...], tuple[int, ...]] | None = None  # `_others`, without banks
    charges: tuple[tuple[Any, ...], tuple[int, ...]] | None = None  # and with them
    others: tuple[tuple[Any, ...], tuple[int, ...]]
    # Everything not kept is scored in one go (`fresh`); the kept scores go in at their places.
    # Every card play and, when `rearrange`, every rearrange gives one score, so a place in
    # `fresh` is a place in its scores (only scooping, listed last, gives none).
    fresh: list[dict[str, Any]] = []
    kept: list[tuple[int, list[tuple[float, dict[str, Any]]]]] = []  # (place, scores)
    made: list[tuple[int, int, tuple[int, int], list[dict[str, Any]],
                     tuple[tuple[Any, ...], tuple[int, ...]]]] = []
    for run in runs:
        if len(run) < _KEPT_RUN:  # short runs cost more to keep than to score
            fresh += run
            continue
        first = run[0]
        typ = first["type"]
        if typ == "bank":
            what = card_key[first["card"]]
            if what in _BOARDS_ONLY:
                if boards is None:
                    boards = _others(o, False)
                others = boards
            elif what in _CHARGES:
                if charges is None:
                    charges = _others(o, True)
                others = charges
            else:
                fresh += run
                continue
            skip = 1  # the banking is scored as listed, the card's plays are kept
        elif typ == "place" and not st.arm_caution:  # arm_caution reads the hand and piles
            skip = 0
            others = _NOTHING  # a placing reads my board alone
        elif (typ == "move" or typ == "swap") and rearrange \
                and o.rearranges_left > REARRANGE_BUDGET - st.move_cap:
            # A free rearrange reads my board, and the fixed properties in hand that the
            # room it makes would take (`_move_total`).
            skip = 0
            others = ((), (frozenset(_fixed_in_hand(o)),))  # type: ignore[assignment]
        else:
            fresh += run
            continue
        key = (id(mine), id(run))
        hit = _RUN_SCORES.new.get(key) or _RUN_SCORES.get(key)
        if hit is not None and hit[0] is mine and hit[1] is run and hit[3] == others[1]:
            if skip:
                fresh.append(first)
            kept.append((len(fresh), list(zip(hit[4], run[skip:] if skip else run, strict=True))))
        else:
            made.append((len(fresh) + skip, len(run) - skip, key, run, others))
            fresh += run
    scored = _scores(o, fresh, rearrange)
    for at, n, key, run, others in made:
        _RUN_SCORES.put(key, (mine, run, others[0], others[1],
                              tuple(map(_first, scored[at:at + n]))))
    if not kept:
        return scored
    out: list[tuple[float, dict[str, Any]]] = []
    done = 0
    for at, scores in kept:
        out += scored[done:at]
        out += scores
        done = at
    out += scored[done:]
    return out


_KEPT_RUN = 3  # the shortest run of plays kept with its scores
_NOTHING: tuple[tuple[Any, ...], tuple[int, ...]] = ((), ())


def _scores(o: Obs, legal: list[dict[str, Any]], rearrange: bool
            ) -> list[tuple[float, dict[str, Any]]]:
    """`legal`'s plays with their scores, in order.

    The commonest plays are scored inline from answers kept per decision, per card or per
    target (a function call per listed play was most of what scoring cost): TDY Orders swaps
    (listed per target x card taken x card given) from their parts' tables, steals from the
    target's board answers, bankings from the decision's banking terms, rearranges from the
    board's answers. The sums are the very ones the helpers make, in their order."""
    out: list[tuple[float, dict[str, Any]]] = []
    add = out.append
    card_key = o.cat.key
    st = _style.get()
    me = o.me
    seats = o._seats
    mine = seats.get(me) or seat_memo(o, me)
    can_move = o.rearranges_left > REARRANGE_BUDGET - st.move_cap
    keep_cid = -1  # the card whose keep value `keep` is: action plays come in runs per card
    keep = 0.0
    tdy_target = None  # the TDY Orders swaps are listed per target, in runs: its parts' tables
    bank_terms = None
    for a in legal:
        typ = a["type"]
        # The commonest types first (action cards list one play per target and card).
        if typ == "action":
            cid = a["card"]
            key = card_key[cid]
            if key == "tdy_orders":
                if cid != keep_cid:
                    keep_cid, keep = cid, keep_value(o, cid)
                t = a["target"]
                if t != tdy_target:
                    tdy_target = t
                    takes, gives = _tdy_parts(o, t)
                taking = takes.get(a["take"])
                if taking is None:
                    taking = takes[a["take"]] = _tdy_take(o, t, a["take"])
                giving = gives.get(a["give"])
                if giving is None:
                    giving = gives[a["give"]] = _tdy_give(o, t, a["give"])
                received, their_loss, their_threat = taking
                my_loss, their_gain = giving
                gain = received - my_loss
                gain += their_threat * their_loss
                gain -= their_threat * their_gain * 0.7
                add((gain - keep, a))
            elif key == "midnight_requisition" or key == "chud":
                # `_steal_gain`'s kept answer, looked up inline.
                if cid != keep_cid:
                    keep_cid, keep = cid, keep_value(o, cid)
                t, take = a["target"], a["take"]
                hit = (seats.get(t) or seat_memo(o, t)).get(("steal", take, me))
                gain = hit[1] if hit is not None and hit[0] is mine else \
                    _steal_gain(o, t, take)
                add((gain - keep, a))
            else:
                add((_action_gain(o, a), a))
        elif typ == "move" or typ == "swap":
            if rearrange:
                add((_move_score(o, a, mine) if can_move else NEG, a))
        elif typ == "bank":
            if bank_terms is None:
                bank_terms = _bank_terms(o)
            add((_bank_score(o, a["card"], bank_terms, st), a))
        elif typ == "place":
            add((_place_gain(o, a["card"], a["colour"]), a))
        elif typ == "end_turn":
            add((0.0, a))
    return out


_first = itemgetter(0)


# ---- answering charges and steals -----------------------------------------------------------

def hit_damage(o: Obs) -> float:
    """What the pending action costs me if it goes through (points)."""
    p = o.pending
    assert p is not None
    kind = p["kind"]
    source = p["source"]
    if kind in ("rent", "finance_office", "roll_call"):
        amount = p.get("amount") or 0
        return payment(o, amount)[1]
    if kind == "inspector_general":
        colour = p["colour"]
        loss = 10.0 + 0.25 * o.rent(o.me, colour)
        loss += _set_count_bonus(o, o.me, -1) + 5.0 * threat(o, source)
        return loss
    if kind in ("midnight_requisition", "chud"):
        take = p["take"]
        colour = o.colour_of(o.me, take)
        return remove_loss(o, o.me, take) + threat(o, source) * receive_gain(o, source, take,
                                                                             colour)
    if kind == "tdy_orders":
        take, give = p["take"], p["give"]
        colour = o.colour_of(o.me, take)
        return (remove_loss(o, o.me, take) - receive_gain(o, o.me, give, None)
                + threat(o, source) * receive_gain(o, source, take, colour))
    return 0.0


def _my_play_worth(o: Obs, target: int) -> float:
    """As the source: what my pending action is worth against `target` (to decide a
    counter-OPSEC)."""
    p = o.pending
    assert p is not None
    kind = p["kind"]
    if kind in ("rent", "finance_office", "roll_call"):
        return _charge_gain(o, target, p.get("amount") or 0)
    if kind == "inspector_general":
        gain = 10.0 + 0.25 * o.rent(target, p["colour"])
        if breaks_approach(o, target, p["colour"]):
            gain += 30.0
        return gain
    if kind in ("midnight_requisition", "chud"):
        return _steal_gain(o, target, p["take"])
    return 2.0


def respond(o: Obs, answers: list[dict[str, Any]]) -> dict[str, Any]:
    cat = o.cat
    bars = _style.get().opsec_bar
    opsecs = sum(1 for c in o.hand if cat.key[c] == "opsec")
    p = o.pending
    by_chain: dict[int, dict[str, dict[str, Any]]] = {}
    for a in answers:
        by_chain.setdefault(a.get("target", o.me), {})[a["answer"]] = a
    for chain_target, options in by_chain.items():
        if "opsec" not in options:
            continue
        if p is not None and p["source"] == o.me:
            worth = _my_play_worth(o, chain_target)
            if worth >= (bars[0] if opsecs == 1 else bars[1] + 0.5):
                return options["opsec"]
            continue
        damage = hit_damage(o)
        bar = bars[0] if opsecs == 1 else bars[1]
        if p is not None and p["kind"] == "inspector_general":
            bar = 0.0
        if damage >= bar:
            return options["opsec"]
    first = next(iter(by_chain.values()))
    return first.get("accept") or answers[0]


# ---- paying ---------------------------------------------------------------------------------

def card_pay_cost(o: Obs, cid: int, payee: int | None) -> float:
    """What handing `cid` over costs me, in points (its money, the set progress I lose, and
    the progress the payee gains)."""
    cat = o.cat
    value = cat.value[cid]
    cost = _style.get().money * value
    if cid in o.bank[o.me]:
        return cost
    for ups in o.upgrades[o.me].values():
        if cid in ups:
            return cost + 0.25 * (HOUSE if cat.key[cid] == "upgrade" else FOC) + 0.5
    colour = o.colour_of(o.me, cid)
    cost += remove_loss(o, o.me, cid) + 0.2
    if payee is not None:
        cost += threat(o, payee) * max(0.0, receive_gain(o, payee, cid, colour))
    return cost


def payment(o: Obs, amount: int) -> tuple[list[int], float]:
    """The cheapest acceptable selection and its cost: a knapsack over totals capped at the
    amount (overpaying already costs the extra money)."""
    # Weighed when the charge is answered (hit_damage) and again when it is paid, on the same
    # boards: kept with this seat's board answers, valid while the bank and the payee's board
    # answers are the same objects (held, so their ids are not reused).
    me = o.me
    payee = o.pending["source"] if o.pending else None
    memo = o._seats.get(me) or seat_memo(o, me)
    theirs = None if payee is None else o._seats.get(payee) or seat_memo(o, payee)
    bank = o.bank[me] or _NO_BANK  # an empty bank is a new list in every shared view
    # One answer per payee's board answers and bank: a turn's charges meet the same few.
    key = ("pay", amount, payee, id(theirs), id(bank))
    hit = memo.get(key)
    if hit is not None and hit[0] is theirs and hit[1] is bank:
        return list(hit[2]), hit[3]
    cards, cost = _payment(o, amount)
    memo[key] = (theirs, bank, tuple(cards), cost)  # type: ignore[assignment]
    return cards, cost


def _payment(o: Obs, amount: int) -> tuple[list[int], float]:
    cat = o.cat
    me = o.me
    payable = o.bank[me] + [c for z in o.zones[me].values() for c in z] + \
        [c for u in o.upgrades[me].values() for c in u]
    if not payable:
        return [], 0.0
    payee = o.pending["source"] if o.pending else None
    total = sum(cat.value[c] for c in payable)
    if total < amount:
        return sorted(payable), sum(card_pay_cost(o, c, payee) for c in payable)
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for c in payable:
        v = cat.value[c]
        if v == 0:
            continue
        cost = card_pay_cost(o, c, payee)
        for got, (spent, chosen) in list(best.items()):
            if got >= amount:
                continue
            nt = min(amount, got + v)
            nc = spent + cost
            cur = best.get(nt)
            if cur is None or nc < cur[0] - 1e-9:
                best[nt] = (nc, (*chosen, c))
    cost, chosen = best[amount] if amount > 0 else (0.0, ())
    if amount <= 0:
        # A zero charge still needs a selection of something (the engine asks for cards).
        cheapest = min(payable, key=lambda c: card_pay_cost(o, c, payee))
        return [cheapest], card_pay_cost(o, cheapest, payee)
    return sorted(chosen), cost


# ---- discarding -----------------------------------------------------------------------------

def discard(o: Obs, count: int) -> list[int]:
    ranked = sorted(o.hand, key=lambda c: (keep_value(o, c), o.cat.value[c], c))
    return sorted(ranked[:count])


# ---- the policy -----------------------------------------------------------------------------

def decide(o: Obs, rng: random.Random | None = None, rearrange: bool = True
           ) -> dict[str, Any]:
    legal = o.legal
    # The types listed, without a filtered copy of the list (scooping is always listed and
    # never chosen; a play decision, most of them, needs nothing more).
    types = {a["type"] for a in legal}
    if len(types) < 2 and (not types or "scoop" in types):
        return legal[0]
    if "respond" in types:
        return respond(o, [a for a in legal if a["type"] == "respond"])
    if "pay" in types:
        cards, _ = payment(o, (o.pending or {}).get("amount") or 0)
        return {"type": "pay", "cards": cards}
    if "discard" in types:
        count = len(next(a for a in legal if a["type"] == "discard")["cards"])
        return {"type": "discard", "cards": discard(o, count)}
    scored = play_scores(o, rearrange)
    best = max(map(_first, scored))
    band = [a for s, a in scored if s >= best - 1e-9]
    if len(band) > 1 and rng is not None:
        return band[rng.randrange(len(band))]
    return band[0]


def plain_move(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """`decide`'s move when the listed actions alone settle it, else None (the decision needs
    the seat's picture): with charges or steals to answer and no OPSEC listed, accepting the
    first chain (what `respond` returns then); with nothing but ending the turn (and
    scooping) listed, ending it. Most answers and a few turns' ends are these; building an
    `Obs` for an answer was about a fifth of its cost."""
    first = None
    for a in legal:
        typ = a["type"]
        if typ == "respond":
            if a["answer"] != "accept":
                return None
            if first is None:
                first = a
    if first is None and len(legal) == 2 and legal[0]["type"] == "end_turn" \
            and legal[1]["type"] == "scoop":
        return legal[0]
    return first


# What `decide` reads of a payer's listed selections: only that a payment is listed (it pays
# with its own knapsack, `payment`).
_OWED = ({"type": "pay", "cards": []}, {"type": "scoop"})


def choose_action(view: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal"]
    answers = unlisted_payments(legal)
    if answers is not None:  # a shared view: the payment selections are not listed yet
        legal = [*answers, *_OWED]
    plain = plain_move(legal)
    if plain is not None:
        return plain
    return decide(Obs.from_view(view, legal), LazyRng(view, "medium"))  # type: ignore[arg-type]
