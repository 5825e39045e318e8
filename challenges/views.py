"""Challenge pages for people: the list (received, made, answered), challenging from a
profile, inviting a bot account to your table, and the answers. Thin: one service each."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from challenges import services
from challenges.services import ChallengeError
from games.platform.interface import get_game, registered_games
from games.platform.models import Table


def game_choices() -> list[tuple[str, str]]:
    """("boardroom:standard", "Boardroom · Standard") for every stock preset of every game."""
    return [(f"{kind}:{key}", f"{get_game(kind).name} · {name}")
            for kind in registered_games() for key, name in get_game(kind).presets().items()]


@require_safe
@login_required
def challenge_list(request: HttpRequest) -> HttpResponse:
    uid = request.user.pk
    return render(request, "challenges/list.html", {
        "received": list(services.pending_received(uid)),
        "made": list(services.pending_made(uid)),
        "answered": services.recent_answered(uid),
    })


@require_POST
@login_required
def challenge_new(request: HttpRequest, username: str) -> HttpResponse:
    kind, _, preset = (request.POST.get("rules") or "").partition(":")
    try:
        seats = int(request.POST.get("seats") or 2)
    except ValueError:
        seats = 0
    try:
        services.challenge_create(challenger_id=request.user.pk, username=username,
                                  game_kind=kind, ruleset_spec={"preset": preset},
                                  seats=seats)
    except ChallengeError as exc:
        messages.error(request, exc.message)
        return redirect("accounts:profile_detail", username=username)
    messages.success(request, f"Challenge sent to {username}; it waits "
                              f"{services.CHALLENGE_MINUTES} minutes for an answer.")
    return redirect("challenges:list")


@require_POST
@login_required
def table_invite(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(code=code.upper()).first()
    if table is None:
        raise Http404("No such table")
    username = (request.POST.get("username") or "").strip()
    try:
        services.challenge_create(challenger_id=request.user.pk, username=username,
                                  game_kind=table.game_kind, table_id=table.pk)
    except ChallengeError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{username} is invited; it takes a seat when it accepts.")
    return redirect(table.invite_path)


@require_POST
@login_required
def challenge_answer(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    uid = request.user.pk
    try:
        if answer == "accept":
            challenge = services.challenge_accept(challenge_id=challenge_id, user_id=uid)
            assert challenge.table is not None
            return redirect(challenge.table.invite_path)
        if answer == "decline":
            services.challenge_decline(challenge_id=challenge_id, user_id=uid,
                                       reason=request.POST.get("reason", ""))
            messages.success(request, "Challenge declined.")
        elif answer == "cancel":
            services.challenge_cancel(challenge_id=challenge_id, user_id=uid)
            messages.success(request, "Challenge cancelled.")
        else:
            raise Http404("No such answer")
    except ChallengeError as exc:
        messages.error(request, exc.message)
    return redirect("challenges:list")
