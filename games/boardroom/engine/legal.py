"""THE legal-action generator: who decides now, and what each seat may do.

Most actions are listed concretely. Two carry numbers a player chooses, so they are listed as
families with their bounds, and an action belongs to the family when its numbers are inside
them (`problem` below decides both, from the same lists):

    {"type": "auction_own", "tile": t, "start_min": a, "start_max": b, "step": 10}
        -> {"type": "auction_own", "tile": t, "start": a + 10k <= b}
    {"type": "propose", "kind": "swap", "to": r, "take": [their tiles],
     "give": [None, your tiles], "cash_max": c}
        -> {"type": "propose", "kind": "swap", "to": r, "take": x, "give": y | None,
            "cash": 0..c}   (cash or a tile of yours, or both)
    {"type": "propose", "kind": "sell", "to": r, "give": [your tiles], "cash_max": c}
        -> {"type": "propose", "kind": "sell", "to": r, "give": y,
            "cash": buyback(y)..c}

plus the memory rules of offers: after a bot refused, the next offer to it for the same tiles
must be 10 better for it, however many turns later (the refusal is remembered until that next
offer is made); a declined bot does not ask for the same tiles for 5 rounds.
"""

from __future__ import annotations

from typing import Any

from .board import (
    AUDIT_BAIL,
    BRANCH_COST,
    BUSINESSES,
    BUYBACK,
    GROUP,
    INDUSTRY,
    IS_OWNABLE,
    KIND,
    OWNABLE,
    PRICE,
)
from .rules import next_bid, owns_industry
from .state import ASK_PAUSE_ROUNDS, BETTER_BY, BID_STEP, rivals

State = dict[str, Any]
Action = dict[str, Any]

FAMILIES = ("propose", "auction_own")
CLOCK_ONLY = ("forfeit", "lot_expired")


def to_decide(st: State) -> list[int]:
    """Seats owed a decision now (always at most one in this game)."""
    if st["phase"] == "finished":
        return []
    if st["auction"] is not None:
        return [st["auction"]["at"]]
    if st["offer"] is not None:
        return [st["offer"]["to"]]
    if st["debts"]:
        return [st["debts"][0]["seat"]]
    return [st["turn"]]


def legal_actions(st: State, seat: int, *, clock: bool = False,
                  families: bool | str = True, lazy: bool = False) -> list[Action]:
    """Everything `seat` may do now. `clock=True` adds what only the site's clocks may apply:
    `forfeit` (a move clock ran out, or the seat left: bankrupt to the bank) and
    `lot_expired` (an auction with no first bid after 60 seconds). `families=False` leaves
    out the trade and lot families (for checking an action that is neither; "propose" or
    "auction_own": only that family, for checking one of its members). `lazy=True`
    (a simulation's bot, deciding before the state moves on) may return a `LazyLegal`:
    the same list, whose trade and lot families after the roll are generated the first time
    anything reads past the concrete actions."""
    if st["phase"] == "finished" or type(seat) is not int or not 0 <= seat < st["seats"] \
            or not st["active"][seat]:
        return []
    out: list[Action] = []
    at = -1
    a = st["auction"]
    o = st["offer"]
    # to_decide, inline (this runs before every decision of a simulation)
    if seat == (a["at"] if a is not None else o["to"] if o is not None else
                st["debts"][0]["seat"] if st["debts"] else st["turn"]):
        at = _decision(st, seat, out, families, lazy and not clock)
    if clock:
        a = st["auction"]
        if a is not None and a["high"] is None and a["at"] == seat:
            out.append({"type": "lot_expired"})
        out.append({"type": "forfeit"})
    elif families is True:
        _LAST[:] = [st, st["version"], seat, out,
                    {id(a): a.copy() for a in out if a["type"] not in FAMILIES}]
        if at >= 0:
            out = _LAST[3] = LazyLegal(out, st, seat, at)
    return out


class LazyLegal(list):
    """The after-roll legal actions with the trade and lot families not yet generated.

    It holds the concrete actions (build, close, end turn) and the place the families go.
    Reading an item among those before them, the last one (end turn), or its truth value
    needs nothing more; anything else (iteration, length, other items, comparison, edits)
    first generates the families, by the same functions as `legal_actions`, and from then on
    it is that very list. Bots that only want concrete actions read them with
    `concrete(legal)` (bots/common.py). The families are those of the state the list was
    made for: reading them once that state has moved on is an error, not a silent mistake.
    """

    __slots__ = ("_at", "_seat", "_st", "_version")

    def __init__(self, concrete: list[Action], st: State, seat: int, at: int) -> None:
        super().__init__(concrete)
        self._st: State | None = st
        self._seat = seat
        self._version = st["version"]
        self._at = at

    @property
    def pending(self) -> bool:
        return self._st is not None

    def fill(self) -> LazyLegal:
        st = self._st
        if st is None:
            return self
        if st["version"] != self._version:
            raise RuntimeError("These legal actions were made for an earlier state")
        self._st = None
        seat = self._seat
        held = tradeable_by_seat(st)
        free = _free_rivals(st, seat)
        fams = _proposals(st, seat, ("swap", "sell"), held, free) + \
            _own_auctions(st, seat, (), held, free)
        list.__setitem__(self, slice(self._at, self._at), fams)
        return self

    def __getitem__(self, i: Any) -> Any:
        if self._st is not None and type(i) is int and (0 <= i < self._at or i == -1):
            return list.__getitem__(self, i)
        self.fill()
        return list.__getitem__(self, i)

    def __bool__(self) -> bool:
        return True  # end turn is always there

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self.fill()),))


def _filled(name: str) -> Any:
    method = getattr(list, name)

    def call(self: LazyLegal, *args: Any, **kwargs: Any) -> Any:
        self.fill()
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


for _name in ("__iter__", "__len__", "__contains__", "__reversed__", "__eq__", "__ne__",
              "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__",
              "__iadd__", "__imul__", "__setitem__", "__delitem__", "__repr__", "__str__",
              "__sizeof__", "append", "extend", "insert", "pop", "remove", "clear", "index",
              "count", "copy", "sort", "reverse"):
    setattr(LazyLegal, _name, _filled(_name))
LazyLegal.__hash__ = None  # type: ignore[assignment]


# The last full list handed out, with the state (held, so its id is not reused), the version
# and seat it was made for, and a copy of each concrete action: `problem` accepts an action
# that IS one of those very dicts, still equal to its copy, without generating the list again
# (a bot returning the action it was offered; one edited in place is checked in full).
_LAST: list[Any] = [None, -1, -1, (), {}]


def _decision(st: State, seat: int, out: list[Action], families: bool | str,
              lazy: bool = False) -> int:
    """Fills `out`; returns where the after-roll families go when `lazy` left them out
    (else -1)."""
    a = st["auction"]
    if a is not None:
        out.append({"type": "bid", "amount": next_bid(a)})
        out.append({"type": "pass"})
        return -1
    if st["offer"] is not None:
        out.append({"type": "answer", "accept": True})
        out.append({"type": "answer", "accept": False})
        return -1
    if st["debts"]:
        _raising_money(st, seat, out, families)
        return -1
    phase = st["phase"]
    cash = st["cash"][seat]
    if phase == "roll":
        if st["audit"][seat] is not None:
            if cash >= AUDIT_BAIL:
                out.append({"type": "pay_bail"})
            if st["releases"][seat]:
                out.append({"type": "use_release"})
        # The guide: "on your turn you may close" (cash before rolling too). The roll stays
        # last: bots and auto move take it from there.
        for t in closable(st, seat):
            out.append({"type": "close", "tile": t})
        out.append({"type": "roll"})
        return -1
    if phase == "buy":
        pos = st["pos"][seat]
        if cash >= PRICE[pos]:
            out.append({"type": "buy", "tile": pos})
        out.append({"type": "decline", "tile": pos})
        return -1
    # phase "act": after the roll
    pos = st["pos"][seat]
    if can_build(st, seat, pos):
        out.append({"type": "build", "tile": pos})
    for t in closable(st, seat):
        out.append({"type": "close", "tile": t})
    at = -1
    if families and not st["trade_used"]:
        if lazy:
            at = len(out)
        else:
            held = tradeable_by_seat(st)
            free = _free_rivals(st, seat)
            if families != "auction_own":
                out.extend(_proposals(st, seat, ("swap", "sell"), held, free))
            if families != "propose":
                out.extend(_own_auctions(st, seat, (), held, free))
    out.append({"type": "end_turn"})
    return at


def _raising_money(st: State, seat: int, out: list[Action], families: bool | str) -> None:
    debt = st["debts"][0]
    for t in closable(st, seat):
        out.append({"type": "close", "tile": t})
    if families:
        held = tradeable_by_seat(st)
        free = _free_rivals(st, seat)
        if families != "propose":
            out.extend(_own_auctions(st, seat, debt["auctioned"], held, free))
        if families != "auction_own":
            out.extend(_proposals(st, seat, ("sell",), held, free))
    for t in bank_sales(st, seat):
        out.append({"type": "sell_bank", "tile": t})
    out.append({"type": "give_up"})


def bank_sales(st: State, seat: int) -> list[int]:
    """Tiles the bank would take from a debtor: those auctioned in this debt with no buyer,
    and a holding the stock cannot break into four branches (taken at once)."""
    debt = next((d for d in st["debts"] if d["seat"] == seat), None)
    if debt is None:
        return []
    owner, level = st["owner"], st["level"]
    tiles = [t for t in debt["unsold"] if owner[t] == seat]
    if st["stock"][0] < 4:
        tiles += [t for t in range(40) if owner[t] == seat and level[t] == 5
                  and t not in tiles]
    return tiles


def can_build(st: State, seat: int, pos: int) -> bool:
    """A branch (or the holding) on the business the token stands on: whole industry, even
    building, once per visit, stock, cash, no debt."""
    if KIND[pos] != "business" or st["built"] or st["owner"][pos] != seat:
        return False
    if not owns_industry(st, seat, pos) or any(d["seat"] == seat for d in st["debts"]):
        return False
    level = st["level"]
    lvl = level[pos]
    if lvl >= 5 or lvl > min(level[t] for t in GROUP[pos]):
        return False
    if st["cash"][seat] < BRANCH_COST[pos]:
        return False
    return st["stock"][1] >= 1 if lvl == 4 else st["stock"][0] >= 1


def closable(st: State, seat: int) -> list[int]:
    """Own tiles whose top building may close now: the most developed of the industry, and a
    holding only when the stock has the four branches it breaks into."""
    level = st["level"]
    if not any(level):
        return []
    owner = st["owner"]
    ok = st["stock"][0] >= 4
    out = []
    # Industry by industry (three tiles each): quicker than a cache keyed by the whole board,
    # which every purchase, auction and building turns into a miss.
    for a, b, c in _TRIPLES:
        la, lb, lc = level[a], level[b], level[c]
        if not (la or lb or lc):
            continue
        top = la if la >= lb and la >= lc else lb if lb >= lc else lc
        if top == 5 and not ok:
            continue
        if la == top and owner[a] == seat:
            out.append(a)
        if lb == top and owner[b] == seat:
            out.append(b)
        if lc == top and owner[c] == seat:
            out.append(c)
    if len(out) > 1:
        out.sort()  # board order
    return out


_TRIPLES: tuple[tuple[int, int, int], ...] = tuple(sorted({GROUP[t] for t in BUSINESSES}))


def tradeable_by_seat(st: State) -> dict[int, list[int]]:
    """Each seat's tradeable tiles (logistics, utilities, businesses of unbuilt industries),
    in board order: one pass over the board for all the families of a decision."""
    owner, level = st["owner"], st["level"]
    key = (*owner, *level)
    held = _HELD.get(key)
    if held is not None:
        return held
    built = {INDUSTRY[t] for t in BUSINESSES if level[t]}
    held = {}
    for t in OWNABLE:
        o = owner[t]
        if o is not None and (not built or INDUSTRY[t] not in built):
            held.setdefault(o, []).append(t)
    if len(_HELD) >= 512:
        _HELD.clear()
    _HELD[key] = held
    return held


# Owners and buildings change rarely during a game, so the same board comes back often.
# Callers never edit the lists they get (families copy what they hand out).
_HELD: dict[tuple, dict[int, list[int]]] = {}


def _free_rivals(st: State, seat: int) -> list[int]:
    """Rivals who may take part in a trade or an auction: active and not in debt."""
    if not st["debts"]:
        return rivals(st, seat)
    debtors = {d["seat"] for d in st["debts"]}
    return [r for r in rivals(st, seat) if r not in debtors]


def _proposals(st: State, seat: int, kinds: tuple[str, ...],
               held: dict[int, list[int]], free: list[int]) -> list[Action]:
    mine = held.get(seat, [])
    out: list[Action] = []
    for r in free:
        theirs = held.get(r)
        if "swap" in kinds and theirs and (mine or st["cash"][seat] > 0):
            out.append({"type": "propose", "kind": "swap", "to": r, "take": theirs[:],
                        "give": [None, *mine], "cash_max": st["cash"][seat]})
        if "sell" in kinds and mine:
            rc = st["cash"][r]
            sellable = [t for t in mine if BUYBACK[t] <= rc]
            if sellable:
                out.append({"type": "propose", "kind": "sell", "to": r, "give": sellable,
                            "cash_max": rc})
    return out


def _own_auctions(st: State, seat: int, exclude: list[int] | tuple[int, ...],
                  held: dict[int, list[int]], free: list[int]) -> list[Action]:
    cash = st["cash"]
    top = max((cash[r] for r in free), default=0)
    out: list[Action] = []
    for t in held.get(seat, []):
        lo = BUYBACK[t]
        if t in exclude or top < lo:
            continue
        hi = lo + (top - lo) // BID_STEP * BID_STEP
        out.append({"type": "auction_own", "tile": t, "start_min": lo, "start_max": hi,
                    "step": BID_STEP})
    return out


# --- membership -------------------------------------------------------------------------------
def offer_key(frm: int, to: int, kind: str, take: int | None, give: int | None) -> str:
    """The refusal memory's key: who offered whom which tiles, and how."""
    return f"{frm}>{to}:{kind}:{take}:{give}"


def after_refusal(kind: str, cash: int) -> int:
    """What the next offer of the same tiles must beat a refused one's `cash` by: a swap's
    least cash, a sale's most (the page's offer forms read it too, board.refusal_bounds)."""
    return cash + BETTER_BY if kind == "swap" else cash - BETTER_BY


def ask_key(frm: int, to: int, take: int | None, give: int | None) -> str:
    """The 5-round memory's key: the same tiles between the same seats, whatever the kind."""
    tiles = sorted(t for t in (take, give) if t is not None)
    return f"{frm}>{to}:" + ",".join(map(str, tiles))


def _is_int(v: Any) -> bool:
    return type(v) is int


def problem(st: State, seat: int, action: Any, *, clock: bool = False) -> str | None:
    """None when `action` is legal for `seat` now; otherwise why not, in words."""
    last = _LAST
    if last[0] is st and last[1] == st["version"] and last[2] == seat and not clock:
        # One of the actions just listed, unchanged (so also well-formed): legal.
        listed = last[4].get(id(action))
        if listed is not None and listed == action and type(action) is dict:
            return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "An action is an object with a type"
    for k, v in action.items():
        if k != "accept" and isinstance(v, bool):
            return f"{k} must be a number"
    kind = action["type"]
    # Checking a member of one family needs only that family (and the concrete actions).
    legal = legal_actions(st, seat, clock=clock,
                          families=kind if kind in FAMILIES else False)
    if kind in FAMILIES:
        reason = None
        for fam in legal:
            if fam["type"] == kind:
                why = _family_problem(st, seat, fam, action)
                if why is None:
                    return None
                # The family the action aims at (same tile, or same kind and seat) explains.
                if fam.get("tile") == action.get("tile") if kind == "auction_own" else (
                        fam["kind"] == action.get("kind") and fam["to"] == action.get("to")):
                    reason = why
        return reason or explain(st, seat, action)
    if action in legal:
        return None
    return explain(st, seat, action)


def _family_problem(st: State, seat: int, fam: Action, a: Action) -> str | None:
    if fam["type"] == "auction_own":
        if a.get("tile") != fam["tile"]:
            return "That property cannot be auctioned now"
        x = a.get("start")
        if set(a) != {"type", "tile", "start"} or not _is_int(x):
            return "Choose a starting bid"
        if x < fam["start_min"]:
            return f"The starting bid cannot be lower than the bank's buyback ({fam['start_min']})"
        if x > fam["start_max"]:
            return f"The starting bid cannot be higher than {fam['start_max']} (the richest " \
                   "rival's cash)"
        if (x - fam["start_min"]) % fam["step"]:
            return "The starting bid goes in steps of 10"
        return None
    if a.get("kind") != fam["kind"] or a.get("to") != fam["to"]:
        return "That offer is not possible now"
    cash, give, take = a.get("cash"), a.get("give"), a.get("take")
    if not _is_int(cash) or cash < 0:
        return "Cash in an offer is a whole number, zero or more"
    if fam["kind"] == "swap":
        if set(a) != {"type", "kind", "to", "take", "give", "cash"}:
            return "A swap names their property, yours (or none) and cash"
        if take not in fam["take"]:
            return "You can only ask for their logistics, utilities or businesses of an " \
                   "industry with no buildings"
        if give not in fam["give"]:
            return "You can only offer your logistics, utilities or businesses of an " \
                   "industry with no buildings"
        if give is None and cash == 0:
            return "Offer cash, a property of yours, or both"
        if cash > fam["cash_max"]:
            return "You do not have that much cash"
    else:
        if set(a) - {"take"} != {"type", "kind", "to", "give", "cash"} or take is not None:
            return "A sale names your property and their cash"
        if give not in fam["give"]:
            return "You can only sell your logistics, utilities or businesses of an " \
                   "industry with no buildings"
        if cash < BUYBACK[give]:
            return f"Sell for no less than the bank would pay ({BUYBACK[give]})"
        if cash > fam["cash_max"]:
            return "They do not have that much cash"
    to = fam["to"]
    refused = st["refused"].get(offer_key(seat, to, fam["kind"], take, give))
    if refused is not None:
        bound = after_refusal(fam["kind"], refused)
        if fam["kind"] == "swap" and cash < bound:
            return f"They refused these tiles: offer at least {bound} this time"
        if fam["kind"] == "sell" and cash > bound:
            return f"They refused these tiles: ask at most {bound} this time"
    if st["bots"][seat]:
        until = st["asks"].get(ask_key(seat, to, take, give))
        if until is not None and st["round"] < until:
            return f"This offer was declined: not again for {ASK_PAUSE_ROUNDS} rounds"
    return None


def explain(st: State, seat: int, action: Action) -> str:
    """A reason a player can read for an action outside the generator."""
    kind = action.get("type")
    if st["phase"] == "finished":
        return "The game is over"
    if type(seat) is not int or not 0 <= seat < st["seats"]:
        return "No such seat"
    if not st["active"][seat]:
        return "You are out of the game"
    if kind in CLOCK_ONLY:
        return "Only the table's clock can do that"
    if seat not in to_decide(st):
        if st["auction"] is not None:
            return "Wait: an auction is running"
        if st["offer"] is not None:
            return "Wait: a trade offer awaits an answer"
        if st["debts"]:
            return "Wait: a debt is being settled"
        return "It is not your turn"
    if st["auction"] is not None:
        if kind == "bid":
            return f"The next bid is exactly {next_bid(st['auction'])}"
        return "Bid or pass"
    if st["offer"] is not None:
        return "Accept or refuse the offer"
    pos = st["pos"][seat]
    if st["debts"]:
        if kind == "end_turn":
            return "You cannot end your turn in debt"
        if kind == "sell_bank":
            return "The bank buys only after an auction where nobody bought the property"
        if kind in ("build", "buy"):
            return "Settle your debt first"
        if kind == "close":
            return _close_reason(st, seat, action.get("tile"))
        return "Raise money or give up"
    phase = st["phase"]
    if phase == "roll":
        if kind == "pay_bail":
            return "You are not under audit" if st["audit"][seat] is None \
                else f"You need {AUDIT_BAIL} to pay"
        if kind == "use_release":
            return "You are not under audit" if st["audit"][seat] is None \
                else "You have no release card"
        if kind == "close":
            return _close_reason(st, seat, action.get("tile"))
        return "Roll the dice first"
    if phase == "buy":
        if kind == "buy":
            return f"You need {PRICE[pos]} to buy this"
        return "Buy it or send it to auction"
    if kind == "roll":
        return "You have already rolled"
    if kind == "build":
        return _build_reason(st, seat, action.get("tile"))
    if kind == "close":
        return _close_reason(st, seat, action.get("tile"))
    if kind == "give_up":
        return "You can only give up while in debt"
    if kind == "sell_bank":
        return "Selling to the bank is only possible while in debt"
    if kind in ("propose", "auction_own") and st["trade_used"]:
        return "Your trade for this turn is used up"
    if kind in ("buy", "decline"):
        return "There is nothing to buy here"
    return "That move is not possible now"


def _build_reason(st: State, seat: int, tile: Any) -> str:
    pos = st["pos"][seat]
    if tile != pos or not _is_int(tile):
        return "You can only expand the business your token stands on"
    if KIND[pos] != "business" or st["owner"][pos] != seat:
        return "This is not your business"
    if not owns_industry(st, seat, pos):
        return "You need the whole industry to expand"
    if st["built"]:
        return "One branch per visit"
    level = st["level"]
    if level[pos] >= 5:
        return "This business already has a holding"
    if level[pos] > min(level[t] for t in GROUP[pos]):
        return "Build evenly: expand the less developed businesses of the industry first"
    if st["cash"][seat] < BRANCH_COST[pos]:
        return f"You need {BRANCH_COST[pos]} to expand"
    return "The bank has no branches or holdings left"


def _close_reason(st: State, seat: int, tile: Any) -> str:
    if not _is_int(tile) or not 0 <= tile < 40 or not IS_OWNABLE[tile] \
            or st["owner"][tile] != seat or not st["level"][tile]:
        return "There is nothing of yours to close there"
    if st["level"][tile] < max(st["level"][t] for t in GROUP[tile]):
        return "Close evenly: start from the most developed business of the industry"
    return "The bank has not enough branches to break this holding"
