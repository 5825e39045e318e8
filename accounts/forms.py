"""Sign-up, log-in and profile forms. Passwords go through Django's validators."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest

from chudopoly_site import throttle
from chudopoly_site.client_address import client_address
from games.platform.identity import BOT_ACCOUNT_PREFIX

USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{2,15}$")
USERNAME_HELP = ("3–16 letters, digits and . _ - (starting with a letter or digit). "
                 "It is your name at the tables and on the ladders.")


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=16, help_text=USERNAME_HELP,
                               widget=forms.TextInput(attrs={"autocomplete": "username",
                                                             "autocapitalize": "none"}))
    email = forms.EmailField(required=False, help_text="Optional: only for resetting your "
                             "password.", widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password1 = forms.CharField(label="Password", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                help_text="At least 8 characters; not too common, not all digits, "
                                "not like your name.")
    password2 = forms.CharField(label="Password again", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_username(self) -> str:
        username = self.cleaned_data["username"].strip()
        if not USERNAME_RE.match(username):
            raise forms.ValidationError(USERNAME_HELP)
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That name is taken; pick another.")
        return username

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", "The two passwords differ.")
        elif p1:
            user = get_user_model()(username=data.get("username", ""), email=data.get("email"))
            try:
                password_validation.validate_password(p1, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data


class LoginForm(forms.Form):
    username = forms.CharField(max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "username",
                                                             "autocapitalize": "none",
                                                             "autofocus": True}))
    password = forms.CharField(strip=False, widget=forms.PasswordInput(
        attrs={"autocomplete": "current-password"}))


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=32, required=False,
                                   help_text="Shown on your profile; leave empty to use your "
                                   "username.")

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        if name.upper().startswith(BOT_ACCOUNT_PREFIX):
            # "BOT …" marks bot accounts (accounts/bots.py); a bot account's own is added.
            raise forms.ValidationError("Names starting with “BOT ” mark bot accounts; "
                                        "pick another.")
        return name


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most PASSWORD_RESET_PER_EMAIL mails to one address and
    PASSWORD_RESET_PER_CLIENT for one client address per hour. Every request counts, whether
    or not the address has an account, and the page answers the same either way, so neither
    the limit nor the answer tells a stranger which addresses are registered."""

    def save(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        window = settings.PASSWORD_RESET_WINDOW_SECONDS
        to_email = throttle.hit("reset-email", self.cleaned_data["email"], window=window)
        from_client = throttle.hit("reset-client", (client_address(request) if request else None)
                                   or "unknown", window=window)
        if (to_email > settings.PASSWORD_RESET_PER_EMAIL
                or from_client > settings.PASSWORD_RESET_PER_CLIENT):
            return
        super().save(*args, request=request, **kwargs)
