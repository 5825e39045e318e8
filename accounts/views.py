"""Account pages: function-based and thin. Passwords are Django's (change and reset views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts import api_tokens, bots, services
from accounts.forms import LoginForm, ProfileForm, SignUpForm
from challenges.services import pending_received
from challenges.views import game_choices
from games.platform.identity import GUEST_SESSION_KEY
from ladder import queries

RECENT_GAMES = 10


def axes_username(request: HttpRequest, credentials: dict | None) -> str:
    """The name axes counts failures under: as typed, ignoring case (names are unique
    ignoring case, so "Gil" and "gil" are one account)."""
    typed = (credentials or {}).get("username") or request.POST.get("username") or ""
    return typed.strip().lower()[:150]


def axes_lockout_response(request: HttpRequest, response: object = None,
                          credentials: object = None) -> HttpResponse:
    """The page django-axes answers a locked-out log-in with: the log-in page saying when to
    try again, with 429. It is built from the request alone: under ASGI, axes 8.3.1's
    middleware (`AxesMiddleware.__acall__`) calls this with its credentials dict where the
    view's response belongs and no credentials, so neither argument can be trusted."""
    return _locked_out_page(request)


def _locked_out_page(request: HttpRequest) -> HttpResponse:
    typed = (request.POST.get("username") or "").strip()
    form = LoginForm(request.POST or None)
    minutes = services.login_lockout_minutes(request, username=typed)
    form.add_error(None, f"Too many failed log-ins for this name from your network. "
                         f"Try again in {minutes} minute{'s' if minutes != 1 else ''}, "
                         "or reset your password.")
    return render(request, "registration/login.html",
                  {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")},
                  status=429)


def _next_url(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return default


def _sign_in(request: HttpRequest, user) -> None:
    """Log in, keeping this browser's guest games (the guest key survives the login)."""
    guest_key = request.session.get(GUEST_SESSION_KEY)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    services.account_adopt_guest(user_id=user.pk, guest_key=guest_key)


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = services.account_create(username=data["username"], email=data["email"],
                                       password=data["password1"])
        _sign_in(request, user)
        messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
        return redirect(_next_url(request, reverse("accounts:profile")))
    return render(request, "accounts/signup.html", {"form": form,
                                                    "next": request.GET.get("next", "")})


@require_http_methods(["GET", "HEAD", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    form = LoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        typed = form.cleaned_data["username"].strip()
        # Names are unique ignoring case, so "alice" finds "Alice". django-axes (first of the
        # AUTHENTICATION_BACKENDS) refuses a locked-out (name, address) pair here and records
        # each failure.
        match = get_user_model().objects.filter(username__iexact=typed).first()
        user = authenticate(request, username=match.get_username() if match else typed,
                            password=form.cleaned_data["password"])
        if getattr(request, "axes_locked_out", False):
            # AxesMiddleware replaces this with axes_lockout_response's page, the same one.
            return _locked_out_page(request)
        if user is None:
            form.add_error(None, "That name and password do not match an account.")
        else:
            _sign_in(request, user)
            return redirect(_next_url(request, reverse("accounts:profile")))
    return render(request, "registration/login.html", {"form": form,
                                                       "next": request.GET.get("next", "")})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, "You are logged out.")
    return redirect("/")


@require_safe
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:profile_detail", username=request.user.get_username())


@require_safe
def profile_detail(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username).select_related("profile").first()
    if user is None:
        raise Http404("No such player")
    own = request.user.is_authenticated and request.user.pk == user.pk
    profile = getattr(user, "profile", None)
    display_name = getattr(profile, "display_name", "") or username
    is_bot = bool(getattr(profile, "is_bot", False))
    custom_games, custom_wins = queries.custom_counts(user.pk)
    recent = queries.history_page(user_id=user.pk, guest_key=None, per_page=RECENT_GAMES)
    form = ProfileForm(initial={"display_name": display_name if display_name != username
                                else ""}) if own else None
    return render(request, "accounts/profile.html", {
        "player": user, "display_name": display_name, "own": own, "form": form,
        "is_bot": is_bot, "shown_name": bots.marked_name(display_name, is_bot=is_bot),
        "upgrade_problem": bots.upgrade_problem(user.pk) if own and not is_bot else None,
        "challenges_waiting": pending_received(user.pk).count() if own else 0,
        "challenge_rules": game_choices() if request.user.is_authenticated and not own else (),
        "standings": queries.standings(user.pk), "custom_games": custom_games,
        "custom_wins": custom_wins, "recent": recent.object_list,
        "more_games": recent.paginator.count > RECENT_GAMES,
        "min_games": queries.LEADERBOARD_MIN_GAMES,
    })


@require_POST
@login_required
def bot_upgrade(request: HttpRequest) -> HttpResponse:
    """Make the signed-in account a bot account: irreversible, so the form asks to confirm."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm: a bot account cannot become a "
                                "person's account again.")
        return redirect("accounts:profile")
    try:
        bots.account_upgrade_to_bot(user_id=request.user.pk)
    except bots.BotUpgradeError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "This is now a bot account: create an API token to play "
                                  "with it (docs/api.md).")
    return redirect("accounts:profile")


@require_POST
@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST)
    if form.is_valid():
        services.profile_update(user_id=request.user.pk,
                                display_name=form.cleaned_data["display_name"])
        messages.success(request, "Profile saved.")
    else:
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return redirect("accounts:profile")


def _tokens_page(request: HttpRequest, *, new_secret: str = "", error: str = "",
                 status: int = 200) -> HttpResponse:
    return render(request, "accounts/api_tokens.html", {
        "tokens": api_tokens.tokens_of(request.user.pk), "scopes": api_tokens.API_SCOPES,
        "new_secret": new_secret, "error": error,
        "description_max": api_tokens.DESCRIPTION_MAX,
    }, status=status)


@require_safe
@login_required
def api_token_list(request: HttpRequest) -> HttpResponse:
    return _tokens_page(request)


@require_POST
@login_required
def api_token_create(request: HttpRequest) -> HttpResponse:
    """Make a token and show its secret on this one answer (it is never shown again, so the
    page is rendered here rather than after a redirect)."""
    try:
        made = api_tokens.token_create(user_id=request.user.pk,
                                       description=request.POST.get("description", ""),
                                       scopes=request.POST.getlist("scopes"))
    except api_tokens.TokenRefused as exc:
        return _tokens_page(request, error=str(exc), status=400)
    response = _tokens_page(request, new_secret=made.secret)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = api_tokens.token_revoke(user_id=request.user.pk, token_id=token_id)
    except api_tokens.TokenRefused as exc:
        raise Http404(str(exc)) from None
    messages.success(request, f"Token “{token.description}” revoked.")
    return redirect("accounts:api_tokens")
