"""Sign-up, log-in and profile forms. Passwords go through Django's validators."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation

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
