"""Account writes: creating accounts, the log-in lockout's message, and adopting a guest's games.

Django's auth does passwords, sessions and reset tokens; these functions add what it lacks.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Profile
from chudopoly_site.client_address import client_address
from games.platform.models import Seat


def login_lockout_minutes(request: HttpRequest, *, username: str) -> int:
    """Whole minutes until this name may try again from this client's address (django-axes
    keeps the failures; the lock lifts a cool-off after the last one)."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt

    cool_off = get_cool_off(request) or timedelta(0)
    last = (AccessAttempt.objects
            .filter(username=(username or "").strip().lower()[:150],
                    ip_address=client_address(request))
            .order_by("-attempt_time").values_list("attempt_time", flat=True).first())
    free_at = (last or timezone.now()) + cool_off
    return max(1, math.ceil((free_at - timezone.now()).total_seconds() / 60))


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
