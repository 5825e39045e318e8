"""Every write of the ladder: finished games and ratings, quick-match queues, pairing, matches.

Services take keyword-only arguments and run under `transaction.atomic`. They reach tables only
through the tables' own services (`games.platform.services`), and announce changes after the commit.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.bots import bot_account_ids, is_bot_account
from games.platform import scheduler
from games.platform import services as tables
from games.platform.identity import Viewer, call_sign_problem
from games.platform.interface import (
    LadderPlaces,
    default_game,
    get_game,
    ladder_places,
    quick_match_seats,
)
from games.platform.interface import stock_preset as game_stock_preset
from games.platform.models import Game, GameAction, Seat, Table
from ladder import broadcast
from ladder.elo import START_RATING, Entrant, is_provisional, rating_changes
from ladder.models import GameRecord, Match, PlayerResult, Queue, QueueTicket, Rating

log = logging.getLogger(__name__)

# Rating windows: ±100 at first, 50 wider every 10 s of waiting, never wider than ±500.
WINDOW_START = 100
WINDOW_STEP = 50
WINDOW_STEP_SECONDS = 10
WINDOW_MAX = 500
BOTS_AFTER_SECONDS = 30  # a casual queue offers "fill with bots" after this long
QUEUE_BOT_LEVEL = "medium"  # the bots that fill a casual table: a real level, shown as such
ARRIVAL_SECONDS = 20  # matched players have this long to reach the table
ABANDON_SECONDS = 8  # a ticket with no open queue page for this long leaves the queue
SILENT_SECONDS = 60  # open pages refresh `last_seen` every pairing run; silence means gone
# Every game's ladder of bot accounts (docs/ladder.md, "Bot accounts"): one per game, whatever
# stock preset its games were played on.
BOTS_LADDER = "bots"


class LadderError(Exception):
    """A refused request. `code` is stable for programs; `message` is for people."""

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def ladders(game_kind: str | None = None) -> dict[str, str]:
    """One game's ladders of people (the default game's unless named): ladder key (a stock
    preset) -> display name, in menu order."""
    return get_game(game_kind or default_game()).presets()


def all_ladders(game_kind: str | None = None) -> dict[str, str]:
    """One game's people's ladders, then its Bots ladder."""
    return {**ladders(game_kind), BOTS_LADDER: "Bots"}


def ladder_title(game_kind: str, ladder: str) -> str:
    """A ladder's name on pages: the preset's for the default game ("Blitz"); another game's
    name comes first, alone when it has a single preset ("Boardroom", "Commonwealth"). A Bots
    ladder is named by its game ("Chudopoly Bots")."""
    if ladder == BOTS_LADDER:
        return f"{get_game(game_kind).name} Bots"
    presets = ladders(game_kind)
    name = presets.get(ladder, "Custom rules" if ladder == "custom" else ladder)
    if game_kind == default_game():
        return name
    game = get_game(game_kind).name
    return game if len(presets) == 1 and ladder in presets else f"{game} {name}"


def ladder_anchor(game_kind: str, ladder: str) -> str:
    """A page id for a ladder, unique across games ("blitz", "boardroom-standard")."""
    return ladder if game_kind == default_game() else f"{game_kind}-{ladder}"


# --- recording finished games and rating them --------------------------------------------------


def stock_preset(game: Game) -> str | None:
    """The stock preset of its game this game was played on, or None for custom rules."""
    return game_stock_preset(get_game(game.game_kind), game.ruleset)


def final_placements(places: LadderPlaces, seat_count: int, leavers: set[int]
                     ) -> dict[int, int]:
    """Engine seat -> placement (1 = first; a shared place is the best of the seats sharing it,
    as in 1, 1, 3). Leavers share the last place below everyone; when everyone lost, every
    seat shares the last place."""
    if places.everyone_lost:
        return dict.fromkeys(range(seat_count), seat_count)
    out: dict[int, int] = {}
    placed = 0
    listed: set[int] = set()
    groups: list[list[int]] = []
    for group in places.groups:
        kept = [s for s in group if s not in leavers and 0 <= s < seat_count and s not in listed]
        listed.update(kept)
        if kept:
            groups.append(kept)
    # A seat the result leaves out comes after those it lists, one place each.
    groups += [[s] for s in range(seat_count) if s not in listed and s not in leavers]
    for group in groups:
        for seat in group:
            out[seat] = placed + 1
        placed += len(group)
    for seat in leavers:
        out[seat] = placed + 1
    return out


def _leavers(game: Game, seats: dict[int, Seat | None]) -> set[int]:
    """Human seats that had left the game when it ended: still away, or whose last decision was
    made by the bot standing in for them (the away flag may already have been cleared).

    None in a game whose rules say what leaving does (`leave_actions`: Boardroom's leaver goes
    bankrupt): its result already places them, and a player who went bankrupt and then closed
    the page keeps the place their bankruptcy gave them."""
    if hasattr(get_game(game.game_kind), "leave_actions"):
        return set()
    humans = {i for i, p in enumerate(game.players) if not p.get("bot")}
    left = {i for i in humans if (seat := seats.get(i)) is not None and seat.away}
    last_source: dict[int, str] = {}
    for seat_no, source in (GameAction.objects.filter(game=game).order_by("version")
                            .values_list("seat", "source")):
        last_source[seat_no] = source
    left |= {i for i in humans if last_source.get(i) == "bot"}
    return left


def _unrated_reason(game: Game, preset: str | None, ranked: bool,
                    owners: list[tuple[int | None, str | None, bool]],
                    places: LadderPlaces, bot_accounts: set[int]) -> str:
    if preset is None:
        return "Custom rules are not rated."
    if any(is_bot for _, _, is_bot in owners):
        return "Games with bots are not rated."
    people = {uid for uid, _, _ in owners if uid not in bot_accounts}
    if bot_accounts and people:
        return "Games of people with bot accounts are not rated."
    if not ranked:
        return "Casual games are not rated."
    if any(user_id is None for user_id, _, _ in owners):
        return "Games with guests are not rated."
    if len({user_id for user_id, _, _ in owners}) != len(owners):
        return "A player held two seats."
    return places.unrated


def ladder_record_game(*, game: Game) -> GameRecord | None:
    """Record a finished game's results, and change ratings if it is rated. Exactly once.

    Call it inside the transaction that finishes the game (so a rating changes in the same
    transaction as the result), before away flags are cleared; a later call for the same game
    does nothing. Returns the record, or None if the game is not finished or already recorded.
    """
    if game.status != Game.Status.FINISHED or not game.result:
        return None
    with transaction.atomic():
        # Serialise with anyone else finishing or recording this game.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        if GameRecord.objects.filter(game_id=game.pk).exists():
            return None
        n = game.seat_count
        seat_rows = Seat.objects.in_bulk([p.get("seat_id") for p in game.players
                                          if p.get("seat_id")])
        seats: dict[int, Seat | None] = {
            i: seat_rows.get(p.get("seat_id")) for i, p in enumerate(game.players)}
        owners: list[tuple[int | None, str | None, bool]] = []
        for i, p in enumerate(game.players):
            seat = seats[i]
            is_bot = bool(p.get("bot"))
            if is_bot:
                owners.append((None, None, True))
            elif seat is not None:
                owners.append((seat.user_id, seat.guest_key, False))
            else:
                owners.append((p.get("user_id"), None, False))

        match = Match.objects.filter(table_id=game.table_id).first()
        ranked = bool(game.number == 1 and (
            (match and match.ranked and not match.with_bots) or _rated_challenge(game)))
        preset = stock_preset(game)
        leavers = _leavers(game, seats) if ranked else set()
        places = ladder_places(get_game(game.game_kind), game.result)
        placements = final_placements(places, n, leavers)
        bot_accounts = bot_account_ids({uid for uid, _, _ in owners if uid is not None})
        reason = _unrated_reason(game, preset, ranked, owners, places, bot_accounts)
        rated = not reason
        # A game of bot accounts alone rates them on their game's Bots ladder.
        rating_ladder = BOTS_LADDER if rated and bot_accounts else preset
        finished_at = game.finished_at or timezone.now()
        record = GameRecord.objects.create(
            game=game, game_kind=game.game_kind, ladder=preset or "custom", seat_count=n,
            ranked=ranked, rated=rated, unrated_reason=reason, finished_at=finished_at)

        before: dict[int, Rating] = {}
        after: dict[int, float] = {}
        if rated:
            user_ids = sorted(uid for uid, _, _ in owners if uid is not None)
            for uid in user_ids:
                Rating.objects.get_or_create(user_id=uid, game_kind=game.game_kind,
                                             ladder=rating_ladder)
            # Lock in a fixed order so two games finishing at once cannot deadlock.
            locked = list(Rating.objects.select_for_update()
                          .filter(user_id__in=user_ids, game_kind=game.game_kind,
                                  ladder=rating_ladder)
                          .order_by("user_id"))
            before = {r.user_id: r for r in locked}
            entrants = [Entrant(rating=before[uid].rating, games=before[uid].games,
                                placement=placements[i])
                        for i, (uid, _, _) in enumerate(owners) if uid is not None]
            changes = rating_changes(entrants)
            for (i, (uid, _, _)), change in zip(
                    ((i, o) for i, o in enumerate(owners) if o[0] is not None), changes,
                    strict=True):
                rating = before[uid]
                after[uid] = rating.rating + change
                Rating.objects.filter(pk=rating.pk).update(
                    rating=after[uid], games=F("games") + 1,
                    wins=F("wins") + (1 if placements[i] == 1 else 0),
                    peak=max(rating.peak, after[uid]))

        PlayerResult.objects.bulk_create([
            PlayerResult(
                record=record, seat=i, name=str(p.get("name", ""))[:32], user_id=uid,
                guest_key=guest_key, is_bot=is_bot, placement=placements[i],
                left=i in leavers,
                rating_before=before[uid].rating if rated and uid in before else None,
                rating_after=after.get(uid) if rated else None,
                provisional=bool(rated and uid in before and is_provisional(before[uid].games)),
                game_kind=record.game_kind, ladder=record.ladder, rated=rated, ranked=ranked,
                seat_count=n, finished_at=finished_at)
            for i, (p, (uid, guest_key, is_bot)) in enumerate(
                zip(game.players, owners, strict=True))
        ])
        return record


def _rated_challenge(game: Game) -> bool:
    """Whether the game's table was made for bot accounts to play rated: by accepting a rated
    challenge, or by the bots' queue without our bots (challenges/)."""
    from challenges.models import BotQueueTicket, Challenge

    return (Challenge.objects.filter(table_id=game.table_id, rated=True,
                                     status=Challenge.Status.ACCEPTED).exists()
            or BotQueueTicket.objects.filter(table_id=game.table_id, with_bots=False,
                                             status=BotQueueTicket.Status.MATCHED).exists())


def ladder_game_finished(*, game: Game) -> None:
    """The tables' finish hook: record the game, never failing the move that finished it.

    Called from `games.platform.services.table_apply_action` in its transaction, when the engine
    reports a result and before away flags are cleared. Should recording fail, the move still stands
    (the savepoint rolls back only the ladder's rows) and the periodic sweep records it later.
    """
    try:
        with transaction.atomic():
            ladder_record_game(game=game)
    except Exception:
        log.exception("could not record finished game %s; the sweep will retry", game.pk)


def ladder_record_finished_games(*, limit: int = 200) -> int:
    """Record finished games nobody recorded yet (a safety net for the finish hook)."""
    ids = list(Game.objects.filter(status=Game.Status.FINISHED, ladder_record__isnull=True)
               .order_by("finished_at").values_list("pk", flat=True)[:limit])
    done = 0
    for pk in ids:
        game = Game.objects.filter(pk=pk).first()
        if game is not None and ladder_record_game(game=game) is not None:
            done += 1
    return done


# --- guests who sign up keep their games ------------------------------------------------------


def ladder_adopt_guest(*, guest_key: str, user_id: int) -> int:
    """Move a guest's game history and open queue ticket to their new account."""
    with transaction.atomic():
        moved = (PlayerResult.objects.filter(guest_key=guest_key, is_bot=False)
                 .exclude(record__results__user_id=user_id)
                 .update(user_id=user_id, guest_key=None))
        QueueTicket.objects.filter(guest_key=guest_key,
                                   status=QueueTicket.Status.WAITING).update(
            status=QueueTicket.Status.CANCELLED, ended_at=timezone.now())
        return moved


# --- queues -----------------------------------------------------------------------------------


def queue_seats(game_kind: str | None = None) -> tuple[int, ...]:
    """The table sizes one game's quick match offers (the default game's unless named)."""
    return quick_match_seats(get_game(game_kind or default_game()))


def _either(sizes: tuple[int, ...]) -> str:
    """(2, 3, 4) -> "2, 3 or 4"."""
    words = [str(n) for n in sizes]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def queue_for(*, preset: str, seats: int, ranked: bool, game_kind: str | None = None) -> Queue:
    game_kind = game_kind or default_game()
    if preset not in ladders(game_kind):
        raise LadderError("There is no such preset.", code="bad_preset")
    sizes = queue_seats(game_kind)
    if seats not in sizes:
        raise LadderError(f"Quick match tables of {get_game(game_kind).name} seat "
                          f"{_either(sizes)} players.", code="bad_seats")
    queue, _ = Queue.objects.get_or_create(game_kind=game_kind, preset=preset, seats=seats,
                                           ranked=bool(ranked))
    return queue


def _owner_filter(viewer: Viewer) -> dict[str, object]:
    if viewer.user_id:
        return {"user_id": viewer.user_id}
    if viewer.guest_key:
        return {"guest_key": viewer.guest_key}
    raise LadderError("Your browser has no session; enable cookies to play.", code="no_session")


def waiting_ticket(viewer: Viewer) -> QueueTicket | None:
    if not viewer.known:
        return None
    return (QueueTicket.objects.select_related("queue")
            .filter(status=QueueTicket.Status.WAITING, **_owner_filter(viewer)).first())


def latest_ticket(viewer: Viewer) -> QueueTicket | None:
    """The viewer's waiting ticket, or else their most recent matched one."""
    if not viewer.known:
        return None
    return (QueueTicket.objects.select_related("queue", "match__table")
            .filter(**_owner_filter(viewer))
            .exclude(status=QueueTicket.Status.CANCELLED)
            .order_by("-joined_at", "-pk").first())


def player_rating(user_id: int | None, ladder: str, game_kind: str | None = None) -> float:
    if user_id is None:
        return START_RATING
    rating = Rating.objects.filter(user_id=user_id, game_kind=game_kind or default_game(),
                                   ladder=ladder).first()
    return rating.rating if rating else START_RATING


def queue_join(*, viewer: Viewer, preset: str, seats: int, ranked: bool,
               name: str | None = None, game_kind: str | None = None) -> QueueTicket:
    """Wait in one queue. Ranked queues need an account; one queue at a time per player; bot
    accounts play in the bots' queues (botqueue), never in people's."""
    if is_bot_account(viewer.user_id):
        raise LadderError("Bot accounts do not play in people's quick match; they join the "
                          "bots' queue over the API (docs/api.md).", code="bot_account")
    if ranked and not viewer.user_id:
        raise LadderError("Ranked queues need an account: sign up or log in first.",
                          code="needs_account")
    owner = _owner_filter(viewer)
    if viewer.user_id:
        player_name = (viewer.username or "Player")[:16]
    else:
        player_name = (name or "").strip()
        problem = call_sign_problem(player_name)
        if problem:
            raise LadderError(problem, code="bad_name")
    now = timezone.now()
    with transaction.atomic():
        queue = queue_for(preset=preset, seats=seats, ranked=ranked, game_kind=game_kind)
        existing = (QueueTicket.objects.select_for_update(of=("self",)).select_related("queue")
                    .filter(status=QueueTicket.Status.WAITING, **owner).first())
        if existing is not None:
            if existing.queue_id == queue.pk:
                return existing
            raise LadderError(f"You are already waiting in the {queue_label(existing.queue)} "
                              "queue. Leave it first.", code="other_queue")
        try:
            with transaction.atomic():
                ticket = QueueTicket.objects.create(
                    queue=queue, user_id=viewer.user_id,
                    guest_key=None if viewer.user_id else viewer.guest_key, name=player_name,
                    rating=player_rating(viewer.user_id, preset, queue.game_kind),
                    joined_at=now, last_seen=now)
        except IntegrityError:
            raise LadderError("You are already waiting in another queue. Leave it first.",
                              code="other_queue") from None
        broadcast.queue_changed_on_commit(queue.pk)
        return ticket


def queue_leave(*, viewer: Viewer) -> bool:
    """Stop waiting. Returns False if there was nothing to leave (e.g. already matched)."""
    if not viewer.known:
        return False
    with transaction.atomic():
        ticket = (QueueTicket.objects.select_for_update()
                  .filter(status=QueueTicket.Status.WAITING, **_owner_filter(viewer)).first())
        if ticket is None:
            return False
        ticket.status = QueueTicket.Status.CANCELLED
        ticket.ended_at = timezone.now()
        ticket.save(update_fields=["status", "ended_at"])
        broadcast.queue_changed_on_commit(ticket.queue_id)
        return True


def queue_socket_opened(*, ticket_id: int) -> None:
    QueueTicket.objects.filter(pk=ticket_id).update(sockets=F("sockets") + 1,
                                                    last_seen=timezone.now())


def queue_socket_closed(*, ticket_id: int) -> None:
    QueueTicket.objects.filter(pk=ticket_id).update(sockets=F("sockets") - 1,
                                                    last_seen=timezone.now())


def queue_seen(*, ticket_id: int) -> None:
    QueueTicket.objects.filter(pk=ticket_id).update(last_seen=timezone.now())


def queue_label(queue: Queue) -> str:
    """"Blitz 2-player ranked", "Boardroom 6-player casual"."""
    name = ladder_title(queue.game_kind, queue.preset)
    return f"{name} {queue.seats}-player {'ranked' if queue.ranked else 'casual'}"


def rating_window(*, waited_seconds: float) -> int:
    """Half-width of a ticket's rating window after waiting this long."""
    steps = int(max(0.0, waited_seconds) // WINDOW_STEP_SECONDS)
    return min(WINDOW_START + WINDOW_STEP * steps, WINDOW_MAX)


def has_window(ticket: QueueTicket) -> bool:
    """Guests have no rating (they only play casual queues), so they wait for no window:
    a guest is seated with whoever is waiting."""
    return not (ticket.user_id is None and ticket.guest_key is not None)


def ticket_window(ticket: QueueTicket, now: datetime) -> tuple[float, float]:
    if not has_window(ticket):
        return float("-inf"), float("inf")
    half = rating_window(waited_seconds=(now - ticket.joined_at).total_seconds())
    return ticket.rating - half, ticket.rating + half


def find_groups(tickets: list[QueueTicket], size: int, now: datetime) -> list[list[QueueTicket]]:
    """Groups of `size` tickets whose rating windows all overlap, longest-waiting first.

    Intervals that overlap pairwise share a common point, so a group is built by keeping the
    running intersection of its windows. The anchor is the longest-waiting ticket not yet
    grouped; candidates are tried closest rating first, then by waiting time.
    """
    tickets = sorted(tickets, key=lambda t: (t.joined_at, t.pk))
    used: set[int] = set()
    groups: list[list[QueueTicket]] = []
    for anchor in tickets:
        if anchor.pk in used:
            continue
        lo, hi = ticket_window(anchor, now)
        group = [anchor]
        candidates = sorted((t for t in tickets if t.pk not in used and t.pk != anchor.pk),
                            key=lambda t: (abs(t.rating - anchor.rating), t.joined_at, t.pk))
        for other in candidates:
            if len(group) == size:
                break
            olo, ohi = ticket_window(other, now)
            if olo <= hi and lo <= ohi:
                group.append(other)
                lo, hi = max(lo, olo), min(hi, ohi)
        if len(group) == size:
            groups.append(group)
            used.update(t.pk for t in group)
    return groups


def _ticket_viewer(ticket: QueueTicket) -> Viewer:
    username = ticket.user.get_username() if ticket.user_id else None
    return Viewer(user_id=ticket.user_id, guest_key=ticket.guest_key, username=username)


def _seat_viewer(seat: Seat) -> Viewer:
    return Viewer(user_id=seat.user_id, guest_key=seat.guest_key,
                  username=seat.user.get_username() if seat.user_id else None)


def _table_names(tickets: list[QueueTicket]) -> list[str]:
    """Names that cannot clash at one table: accounts keep theirs, guests get a number."""
    taken = {t.name.lower() for t in tickets if t.user_id}
    names = []
    for t in tickets:
        name = t.name
        if not t.user_id:
            n = 2
            while name.lower() in taken:
                name = f"{t.name[:13]} {n}"
                n += 1
        taken.add(name.lower())
        names.append(name)
    return names


def _match_create(queue: Queue, tickets: list[QueueTicket], now: datetime) -> Match:
    names = _table_names(tickets)
    viewers = [_ticket_viewer(t) for t in tickets]
    table = tables.table_create(viewer=viewers[0], name=names[0],
                                ruleset_spec={"preset": queue.preset}, max_seats=queue.seats,
                                is_public=False, game_kind=queue.game_kind)
    for viewer, name in zip(viewers[1:], names[1:], strict=True):
        tables.seat_join(table_id=table.pk, viewer=viewer, name=name)
    match = Match.objects.create(queue=queue, table=table, ranked=queue.ranked,
                                 start_deadline=now + timedelta(seconds=ARRIVAL_SECONDS))
    for ticket in tickets:
        ticket.status = QueueTicket.Status.MATCHED
        ticket.match = match
        ticket.ended_at = now
        ticket.save(update_fields=["status", "match", "ended_at"])
        broadcast.ticket_matched_on_commit(ticket.pk)
    match_id = match.pk
    transaction.on_commit(lambda: scheduler.run_after(ARRIVAL_SECONDS + 0.5, "ladder.match_start",
                                                      match_id=match_id))
    return match


def queue_pair(*, now: datetime | None = None) -> list[Match]:
    """Fill tables from every queue. Safe to run twice at once: a queue another run is pairing
    is skipped (its row is locked), and tickets change status under that lock."""
    now = now or timezone.now()
    made: list[Match] = []
    queue_ids = list(QueueTicket.objects.filter(status=QueueTicket.Status.WAITING)
                     .values_list("queue_id", flat=True).distinct())
    for queue_id in sorted(set(queue_ids)):
        with transaction.atomic():
            queue = (Queue.objects.select_for_update(skip_locked=True)
                     .filter(pk=queue_id).first())
            if queue is None:
                continue  # another pairing run holds this queue
            tickets = list(QueueTicket.objects.select_for_update(of=("self",))
                           .filter(queue=queue, status=QueueTicket.Status.WAITING)
                           .select_related("user").order_by("joined_at", "pk"))
            live = []
            closed_before = now - timedelta(seconds=ABANDON_SECONDS)
            silent_before = now - timedelta(seconds=SILENT_SECONDS)
            for ticket in tickets:
                # No open queue page for a while, or no sign of life at all (a socket count
                # left behind by a web process that died).
                if ((ticket.sockets <= 0 and ticket.last_seen < closed_before)
                        or ticket.last_seen < silent_before):
                    ticket.status = QueueTicket.Status.CANCELLED
                    ticket.ended_at = now
                    ticket.save(update_fields=["status", "ended_at"])
                else:
                    live.append(ticket)
            for group in find_groups(live, queue.seats, now):
                try:
                    with transaction.atomic():
                        made.append(_match_create(queue, group, now))
                except tables.TableError as exc:
                    log.warning("could not seat a match from %s: %s", queue, exc.message)
            broadcast.queue_changed_on_commit(queue.pk)
    return made


def queue_fill_with_bots(*, viewer: Viewer) -> Match:
    """A casual player who waited long enough plays at once: them and bots."""
    now = timezone.now()
    with transaction.atomic():
        ticket = (QueueTicket.objects.select_for_update(of=("self",))
                  .select_related("queue", "user")
                  .filter(status=QueueTicket.Status.WAITING, **_owner_filter(viewer)).first())
        if ticket is None:
            raise LadderError("You are not waiting in a queue.", code="not_queued")
        queue = ticket.queue
        if queue.ranked:
            raise LadderError("Ranked games are played against people only.", code="ranked")
        if (now - ticket.joined_at).total_seconds() < BOTS_AFTER_SECONDS:
            raise LadderError(f"Bots can fill the table after {BOTS_AFTER_SECONDS} seconds "
                              "of waiting.", code="too_soon")
        player = _ticket_viewer(ticket)
        table = tables.table_create(viewer=player, name=ticket.name,
                                    ruleset_spec={"preset": queue.preset},
                                    max_seats=queue.seats, is_public=False,
                                    game_kind=queue.game_kind)
        for _ in range(queue.seats - 1):
            tables.seat_add_bot(table_id=table.pk, viewer=player, level=QUEUE_BOT_LEVEL)
        tables.game_start(table_id=table.pk, viewer=player)
        match = Match.objects.create(queue=queue, table=table, ranked=False, with_bots=True,
                                     start_deadline=now, started_at=now)
        ticket.status = QueueTicket.Status.MATCHED
        ticket.match = match
        ticket.ended_at = now
        ticket.arrived_at = now
        ticket.save(update_fields=["status", "match", "ended_at", "arrived_at"])
        broadcast.queue_changed_on_commit(queue.pk)
        broadcast.ticket_matched_on_commit(ticket.pk)
        return match


# --- matches: arriving and starting ------------------------------------------------------------


def _owns_ticket(ticket: QueueTicket, viewer: Viewer) -> bool:
    if ticket.user_id:
        return ticket.user_id == viewer.user_id
    return bool(viewer.guest_key) and ticket.guest_key == viewer.guest_key


def match_arrive(*, ticket_id: int, viewer: Viewer) -> Table:
    """A matched player reached their table; the game starts once everyone has."""
    with transaction.atomic():
        ticket = QueueTicket.objects.filter(pk=ticket_id).select_related("match__table").first()
        if ticket is None or not _owns_ticket(ticket, viewer):
            raise LadderError("That is not your match.", code="not_yours")
        if ticket.match is None:
            raise LadderError("You have not been matched yet.", code="not_matched")
        # The match row serialises arrivals, so the last one to arrive sees everyone.
        match = Match.objects.select_for_update().get(pk=ticket.match_id)
        if ticket.arrived_at is None:
            QueueTicket.objects.filter(pk=ticket.pk).update(arrived_at=timezone.now())
        everyone = not match.tickets.filter(arrived_at__isnull=True).exists()
        table = match.table
        start = everyone and match.started_at is None
    if start:
        match_start(match_id=match.pk)
    return table


@dataclass(frozen=True)
class MatchStart:
    game: Game | None
    no_shows: int


def match_start(*, match_id: int) -> MatchStart | None:
    """Start a match's game (once), with a bot playing for anyone who never arrived."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.started_at is not None:
            return None
        table = Table.objects.get(pk=match.table_id)
        game = None
        if table.status == Table.Status.OPEN:
            seats = list(table.seats.select_related("user"))
            host = next((s for s in seats if s.pk == table.host_id), None)
            if host is not None and len(seats) >= 2:
                game = tables.game_start(table_id=table.pk, viewer=_seat_viewer(host))
        elif table.status == Table.Status.PLAYING:
            game = tables.current_game(table)  # the host started it by hand
        match.started_at = timezone.now()
        match.save(update_fields=["started_at"])
        no_shows = 0
        if game is not None:
            for ticket in match.tickets.filter(arrived_at__isnull=True).select_related("user"):
                with contextlib.suppress(tables.TableError):
                    tables.seat_leave(table_id=table.pk, viewer=_ticket_viewer(ticket))
                    no_shows += 1
        return MatchStart(game=game, no_shows=no_shows)


def matches_start_overdue(*, now: datetime | None = None) -> int:
    """Start matches whose arrival deadline passed (a safety net for the scheduled start)."""
    now = now or timezone.now()
    ids = list(Match.objects.filter(started_at__isnull=True, start_deadline__lte=now)
               .values_list("pk", flat=True)[:100])
    return sum(1 for pk in ids if match_start(match_id=pk) is not None)
