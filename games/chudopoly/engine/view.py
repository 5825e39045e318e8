"""The one door for hidden information: a per-seat view of a state, and the same redaction for
events. Nothing here reveals another player's hand or the order of the deck."""

from __future__ import annotations

from .board import complete_colours, net_worth, rent_for
from .cards import COLOUR_KEYS, Catalogue
from .legal import legal_actions, responses, shared_turn_actions, shown_in_view, to_decide
from .payment import owed_entry
from .recent import Recent
from .state import CONTEST_LAP_CAP, DECK_CYCLE_LIMIT, HAND_LIMIT, catalogue_for
from .winning import checkpoint_forecast, contest_bar, contest_laps

# Events that carry hand cards: only the seat whose hand it is sees the ids.
_PRIVATE_EVENTS = frozenset(("draw", "deal"))


def view(state: dict, seat: int | None, *, shared: bool = False) -> dict:
    """What `seat` may see (None: a spectator). The only thing a browser is ever sent.

    Every call returns new objects, unless `shared`: then the parts that read the same from
    seat to seat and from move to move (each board's bank and zones, an unarmed player's
    entry, the discard pile, the hand's card dicts, the ruleset) are the same objects in every
    view that shows them, for callers that only read the view (bots in the arena). The
    content is the same either way."""
    if shared:
        return _shared_view(state, seat)
    cat = catalogue_for(state)
    card, cards = cat.card, cat.card_dicts
    pure = state["ruleset"]["pureSetRequired"]
    players = []
    for s, p in enumerate(state["players"]):
        bank_total, worth, sets, rows = _board(cat, p, pure)[:4]
        zones = [{"colour": colour, "cards": cards(zone, colour),
                  "upgrades": cards(ups, colour) if ups else [], "complete": complete,
                  "rent": rent}
                 for colour, zone, ups, complete, rent in rows]
        players.append(_player_entry(state, s, p, cards(p["bank"]), bank_total, zones, sets,
                                     worth, _forecast(state, s, p)))
    own = seat is not None and 0 <= seat < len(state["players"])
    discard = state["discard"]
    return _view_of(
        state, cat, viewer=seat, players=players,
        discard_top=card(discard[-1]) if discard else None, discard=cards(reversed(discard)),
        hand=cards(state["players"][seat]["hand"]) if own else [],
        legal=legal_actions(state, seat) if own else [],
        ruleset=_copy_ruleset(state["ruleset"]))


def _forecast(state: dict, seat: int, player: dict) -> tuple | None:
    # None for anyone not armed (checkpoint_forecast's first answer), without the call.
    return None if player["armed_at"] is None else checkpoint_forecast(state, seat)


def _player_entry(state: dict, seat: int, player: dict, bank: list[dict], bank_total: int,
                  zones: list[dict], sets: int, worth: int, forecast: tuple | None) -> dict:
    """A seat's public entry in `players`, as every view (shared or not) shows it."""
    return {
        "seat": seat,
        "active": player["active"],
        "hand_count": len(player["hand"]),
        "bank": bank,
        "bank_total": bank_total,
        "zones": zones,
        "sets": sets,
        "net_worth": worth,
        "armed": player["armed_at"] is not None,
        "armed_at": player["armed_at"],
        "checkpoint_turn": forecast[0] if forecast else None,
        "opponent_turns_remaining": forecast[1] if forecast else None,
    }


def _view_of(state: dict, cat: Catalogue, *, viewer: int | None, players: list[dict],
             discard_top: dict | None, discard: list[dict], hand: list[dict],
             legal: list[dict], ruleset: dict) -> dict:
    """A view's keys, in the one order every view (shared or not) has them."""
    return {
        "version": state["version"],
        "viewer": viewer,
        "turn": state["turn"],
        "order": state["order"][:],
        "turn_number": state["turn_number"],
        "phase": state["phase"],
        "plays_left": state["plays_left"],
        "rearranges_left": state["rearranges_left"],
        "surge": state["surge"],
        "surge_multiplier": 2 ** state["surge"],
        "hand_limit": HAND_LIMIT,
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "discard_top": discard_top,
        "discard": discard,
        "shuffle_count": state["shuffle_count"],
        "deck_cycle_limit": DECK_CYCLE_LIMIT,
        "players": players,
        "hand": hand,
        "pending": _pending_view(state, cat),
        "to_decide": to_decide(state),
        "legal": legal,
        "contested": state["contested_since"] is not None,
        "contest_laps": contest_laps(state),
        "contest_lap_cap": CONTEST_LAP_CAP,
        "contest_bar": contest_bar(state),
        "ruleset": ruleset,
        "result": copy_result(state["result"]),
    }


def _shared_view(state: dict, seat: int | None) -> dict:
    """`view(shared=True)`: every view of one state has the same public part (everything but
    the viewer, its hand and its legal actions), built by the first view of that state asked
    for and copied, a dict of references, by the others: a table's screens ask for four
    seats' views and a spectator's of each new state. Read only, as every shared part."""
    hit = _PUBLIC_VIEWS.new.get(id(state)) or _PUBLIC_VIEWS.get(id(state))
    if hit is None or hit[0] is not state:
        public = _public_part(state)
        hit = (state, public)  # the state held: its id is not reused while here
        _PUBLIC_VIEWS.put(id(state), hit)
    public, shown_zones = hit[1]
    v = dict(public)  # the same keys in the same order, three of them this viewer's
    v["viewer"] = seat
    if seat is not None and 0 <= seat < len(state["players"]):
        v["hand"] = catalogue_for(state).shared_card_dicts(state["players"][seat]["hand"])
        v["legal"] = _shared_legal(state, seat, shown_zones)
    return v


def _public_part(state: dict) -> tuple[dict, list[list[dict]]]:
    """A shared view of `state` as a spectator's, with each seat's zones as shown (what a
    seat's legal actions are found by)."""
    cat = catalogue_for(state)
    pure = state["ruleset"]["pureSetRequired"]
    players = []
    shown_zones = []
    for s, p in enumerate(state["players"]):
        # A state is a value (apply copies a player it changes), so a player dict seen
        # before shows the same board: found by identity, its content not even hashed;
        # unless armed (the forecast reads the whole state), its whole entry too.
        known = _BY_PLAYER.new.get(id(p)) or _BY_PLAYER.get(id(p))
        if known is not None and known[0] is p and known[1] is cat and known[2] == s:
            if known[3] is not None:
                players.append(known[3])
                shown_zones.append(known[3]["zones"])
                continue
            board = known[4]
        else:
            known = None
            board = _board(cat, p, pure)
        bank_total, worth, sets, _ = board[:4]
        bank, zones = board[4] or _shown(cat, board, p)
        shown_zones.append(zones)
        forecast = _forecast(state, s, p)
        entry = _player_entry(state, s, p, bank, bank_total, zones, sets, worth, forecast)
        players.append(entry)
        if known is None:
            _BY_PLAYER.put(id(p), (p, cat, s, entry if forecast is None else None, board))
    discard = state["discard"]
    # The top card is the shown pile's first card dict (the same content as `card`'s).
    shown_discard = _shown_discard(cat, discard)
    return _view_of(state, cat, viewer=None, players=players,
                    discard_top=shown_discard[0] if discard else None, discard=shown_discard,
                    hand=[], legal=[], ruleset=_shared_ruleset(state["ruleset"])), shown_zones


# What a board shows (bank total, net worth, sets, per zone in colour-table order: colour,
# cards, upgrades, complete, rent; and for shared views its bank and zones as shown), by the
# board's content: most boards are the same from seat to seat and from move to move. Each
# game makes a few hundred boards; a bench replaying a deal finds them all again.
_BOARDS: Recent[tuple, list] = Recent(512)
_ZONE_IDS: Recent[tuple, tuple[dict[str, list[int]], dict[str, list[int]]]] = Recent(512)
_DISCARDS: Recent[tuple[Catalogue, tuple[int, ...]], list[dict]] = Recent(256)
# Shared views' zones lists by their rows (`_shown_zones`).
_ZONES: Recent[tuple, list[dict]] = Recent(512)
# Shared views: the last discard pile shown, (catalogue, pile list, shown): states share the
# pile's list until a card goes to it (`Tx.piles` copies it then), so most views find it by
# identity instead of hashing the whole pile.
_last_discard: tuple[Catalogue | None, list[int] | None, list[dict]] = (None, None, [])
# Shared views: id(player) -> (player, catalogue, seat, its entry in `players` unless armed,
# board). Only the latest states' players come back; the player is held, so its id is not
# reused while here.
_BY_PLAYER: Recent[int, tuple[dict, Catalogue, int, dict | None, list]] = Recent(64)
# Shared views: id(state) -> (state, (its views' public part, each seat's zones as shown)):
# the few latest states' (`_shared_view`).
_PUBLIC_VIEWS: Recent[int, tuple[dict, tuple[dict, list[list[dict]]]]] = Recent(16)
# Shared views: id(ruleset) -> (ruleset, its copy); a game's states share one ruleset dict.
_RULESETS: Recent[int, tuple[dict, dict]] = Recent(64)


def _copy_ruleset(rules: dict) -> dict:
    return {**rules, "deck": dict(rules["deck"])}


def _shared_ruleset(rules: dict) -> dict:
    hit = _RULESETS.new.get(id(rules)) or _RULESETS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = (rules, _copy_ruleset(rules))
        _RULESETS.put(id(rules), hit)
    return hit[1]
_NO_UPGRADES: list[dict] = []  # shared views: every zone without upgrades shows this list


class _Shown(list):
    """A bank, zones list or discard pile of a shared view, with the card ids it shows, so a
    bot reads them without converting card dicts back (`shared_ids`). Encodes as a list."""

    __slots__ = ("ids",)


def _board(cat: Catalogue, p: dict, pure: bool) -> list:
    zones, ups = p["zones"], p["upgrades"]
    key = (cat, pure, tuple(p["bank"]), tuple(zones), tuple(map(tuple, zones.values())),
           tuple(ups), tuple(map(tuple, ups.values())))
    hit = _BOARDS.new.get(key) or _BOARDS.get(key)
    if hit is None:
        sets = complete_colours(cat, p, pure)
        rows = [(colour, tuple(zones[colour]), tuple(ups.get(colour, ())), colour in sets,
                 rent_for(cat, p, colour))
                for colour in COLOUR_KEYS if zones.get(colour)]
        hit = [sum(cat.value[c] for c in p["bank"]), net_worth(cat, p), len(sets), rows, None]
        _BOARDS.put(key, hit)
    return hit


def _shown(cat: Catalogue, board: list, p: dict) -> tuple[list[dict], list[dict]]:
    """A board's bank and zones as a shared view shows them, built once per board."""
    bank = _Shown(cat.shared_card_dicts(p["bank"]))
    bank.ids = list(p["bank"])
    board[4] = (bank, _shown_zones(cat, board[3]))
    return board[4]


def _shown_zones(cat: Catalogue, rows: list[tuple]) -> list[dict]:
    """A board's zones as a shared view shows them: one list per zones content (the rows hold
    it all: colour, cards, upgrades, complete, rent), whatever the bank holds, so a banking or
    a payment from the bank builds only the new bank."""
    key = (cat, tuple(rows))
    zones = _ZONES.new.get(key) or _ZONES.get(key)
    if zones is None:
        cards = cat.shared_card_dicts
        zones = _Shown({"colour": colour, "cards": cards(zone, colour),
                        "upgrades": cards(ups, colour) if ups else _NO_UPGRADES,
                        "complete": complete, "rent": rent}
                       for colour, zone, ups, complete, rent in rows)
        zones.ids = _zone_ids(rows)
        _ZONES.put(key, zones)
    return zones


def _zone_ids(rows: list[tuple]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """The ids a board's zones show, ({colour: card ids}, {colour: upgrade ids}): one pair of
    dicts per zones content, whatever the bank holds, so a bot's answers about a board's zones
    (kept by these dicts' identity) outlive a banking or a payment from the bank."""
    key = tuple((colour, zone, ups) for colour, zone, ups, _, _ in rows)
    ids = _ZONE_IDS.new.get(key) or _ZONE_IDS.get(key)
    if ids is None:
        ids = ({colour: list(zone) for colour, zone, _, _, _ in rows},
               {colour: list(ups) for colour, _, ups, _, _ in rows if ups})
        _ZONE_IDS.put(key, ids)
    return ids


def _shown_discard(cat: Catalogue, discard: list[int]) -> list[dict]:
    global _last_discard
    last_cat, last_pile, shown = _last_discard
    if last_pile is discard and last_cat is cat:
        return shown
    shown = _discard_by_content(cat, discard)
    _last_discard = (cat, discard, shown)  # held: its id is not reused while here
    return shown


def _discard_by_content(cat: Catalogue, discard: list[int]) -> list[dict]:
    key = (cat, tuple(discard))
    shown = _DISCARDS.new.get(key) or _DISCARDS.get(key)
    if shown is None:
        shown = _Shown(cat.shared_card_dicts(reversed(discard)))
        shown.ids = discard[::-1]
        _DISCARDS.put(key, shown)
    return shown


class _Payments(list):
    """A shared view's legal actions for a seat that owes a payment, its bounded list of
    payment selections (`covering_selections`) not yet built: the medium bot pays with its
    own knapsack and reads only that a payment is owed (`unlisted_payments`), and listing the
    selections was about a twentieth of a bot-only game. Any read of the list itself
    (iterating, indexing, its length, comparing, encoding it as JSON) lists them first, so it
    reads as `legal_actions(state, seat)` always. Read only, like every shared part."""

    __slots__ = ("_answers", "_seat", "_state")

    def __init__(self, state: dict, seat: int) -> None:
        super().__init__()
        self._state: dict | None = state
        self._seat = seat
        self._answers = responses(state, seat)

    def _listed(self) -> list:
        if self._state is not None:
            list.extend(self, legal_actions(self._state, self._seat))
            self._state = None
        return self

    def __iter__(self):  # json's C encoder reads a list subclass through its iterator
        return list.__iter__(self._listed())

    def __reversed__(self):
        return list.__reversed__(self._listed())

    def __len__(self) -> int:
        return list.__len__(self._listed())

    def __getitem__(self, i):
        return list.__getitem__(self._listed(), i)

    def __contains__(self, x: object) -> bool:
        return list.__contains__(self._listed(), x)

    def __eq__(self, other: object) -> bool:
        return list.__eq__(self._listed(), other)

    def __ne__(self, other: object) -> bool:
        return list.__ne__(self._listed(), other)

    __hash__ = None  # type: ignore[assignment]

    def __lt__(self, other: object) -> bool:
        return list.__lt__(self._listed(), other)

    def __le__(self, other: object) -> bool:
        return list.__le__(self._listed(), other)

    def __gt__(self, other: object) -> bool:
        return list.__gt__(self._listed(), other)

    def __ge__(self, other: object) -> bool:
        return list.__ge__(self._listed(), other)

    def __add__(self, other):
        return list.__add__(self._listed(), other)

    def __mul__(self, n):
        return list.__mul__(self._listed(), n)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return list.__repr__(self._listed())

    def __reduce_ex__(self, protocol):  # copy, deepcopy and pickle: a plain list
        return list, (list(self),)

    def copy(self) -> list:
        return list(self)

    def index(self, *args):
        return list.index(self._listed(), *args)

    def count(self, x: object) -> int:
        return list.count(self._listed(), x)


def _shared_legal(state: dict, seat: int, zones: list[list[dict]]) -> list[dict]:
    """The legal actions a shared view shows `seat`; `zones`: each seat's zones as shown (one
    object per content, what a turn's kept plays are found by)."""
    phase = state["phase"]
    if phase == "respond" and state["players"][seat]["active"] \
            and owed_entry(state, seat) is not None:
        return _Payments(state, seat)
    if phase == "play" and state["turn"] == seat and state["players"][seat]["active"]:
        listed = shared_turn_actions(state, seat, zones)
    else:
        listed = legal_actions(state, seat)
    shown_in_view(state, seat, listed)  # apply takes these very objects as checked
    return listed


def unlisted_payments(legal: object) -> list[dict] | None:
    """For a shared view's legal actions whose payment selections are not listed yet: the
    answers to charges listed ahead of them (often none); a payment is owed. None for any
    other list (every action listed), which is then read as it is."""
    if type(legal) is _Payments and legal._state is not None:
        return legal._answers
    return None


def shared_ids(part: object) -> object | None:
    """For a bank, a zones list or the discard pile of a shared view: the ids it shows (a list;
    for zones, ({colour: card ids}, {colour: upgrade ids})), read only. None for any other
    object, e.g. a part of an unshared view."""
    return part.ids if type(part) is _Shown else None


def copy_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    return {**result, "placements": result["placements"][:], "sets": dict(result["sets"])}


def _pending_view(state: dict, cat) -> dict | None:
    pending = state["pending"]
    if pending is None:
        return None
    out = {k: v for k, v in pending.items() if k not in ("targets", "card", "take", "give")}
    out["card"] = cat.card(pending["card"])
    for k in ("take", "give"):
        if pending.get(k) is not None:
            out[k] = cat.card(pending[k])
    out["targets"] = [dict(t) for t in pending["targets"]]
    return out


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """Events as `seat` may see them: draw/deal card ids only for the drawer."""
    out = []
    for ev in events:
        if ev["type"] in _PRIVATE_EVENTS and ev.get("seat") != seat:
            ev = {k: v for k, v in ev.items() if k != "cards"}
        out.append(ev)
    return out
