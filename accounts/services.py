"""Account writes: creating accounts, the failed-login throttle, and adopting a guest's games.

Django's auth does passwords, sessions and reset tokens; these functions add what it lacks.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from accounts.models import LoginFailure, Profile
from games.platform.models import Seat

LOGIN_FAILURES_ALLOWED = 5
LOGIN_WINDOW = timedelta(minutes=15)


def _key(username: str) -> str:
    return (username or "").strip().lower()[:150]


def login_blocked_for(*, username: str, ip: str | None) -> int | None:
    """Whole minutes until this username may try again from this address, or None if it may
    try now. Blocked after `LOGIN_FAILURES_ALLOWED` failures within `LOGIN_WINDOW`."""
    since = timezone.now() - LOGIN_WINDOW
    failures = list(LoginFailure.objects.filter(username=_key(username), ip=ip,
                                                created_at__gte=since)
                    .order_by("-created_at").values_list("created_at", flat=True)
                    [:LOGIN_FAILURES_ALLOWED])
    if len(failures) < LOGIN_FAILURES_ALLOWED:
        return None
    # Free again when the oldest of the last five failures leaves the window.
    free_at = failures[-1] + LOGIN_WINDOW
    return max(1, math.ceil((free_at - timezone.now()).total_seconds() / 60))


def login_failure_record(*, username: str, ip: str | None) -> None:
    with transaction.atomic():
        LoginFailure.objects.create(username=_key(username), ip=ip)
        # Keep the table small: nothing older than the window matters.
        LoginFailure.objects.filter(created_at__lt=timezone.now() - LOGIN_WINDOW).delete()


def login_failures_clear(*, username: str, ip: str | None) -> None:
    LoginFailure.objects.filter(username=_key(username), ip=ip).delete()


def account_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, email=email or "",
                                                    password=password)
        Profile.objects.create(user=user, display_name="")
        return user


def profile_update(*, user_id: int, display_name: str) -> Profile:
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user_id=user_id)
        profile.display_name = display_name.strip()
        profile.save(update_fields=["display_name"])
        return profile


def account_adopt_guest(*, user_id: int, guest_key: str | None) -> int:
    """A guest who signs up (or logs in) keeps the seats and games of this browser.

    Seats held under the guest key become the account's (skipping a table where the account
    already sits); finished games move to the account's history. Returns the seats moved.
    """
    from ladder.services import ladder_adopt_guest

    if not guest_key:
        return 0
    with transaction.atomic():
        taken = set(Seat.objects.filter(user_id=user_id).values_list("table_id", flat=True))
        seats = Seat.objects.filter(guest_key=guest_key, is_bot=False)
        moved = seats.exclude(table_id__in=taken).update(user_id=user_id, guest_key=None)
        ladder_adopt_guest(guest_key=guest_key, user_id=user_id)
        return moved
