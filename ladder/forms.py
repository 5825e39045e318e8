"""The quick-match form and the history filters."""

from __future__ import annotations

from typing import Any

from django import forms

from games.platform.identity import call_sign_problem
from ladder.services import QUEUE_SEATS, ladders

MODES = (("casual", "Casual (anyone, unrated)"), ("ranked", "Ranked (account needed, rated)"))


class QueueForm(forms.Form):
    preset = forms.ChoiceField(label="Rules", choices=())
    seats = forms.TypedChoiceField(label="Players", coerce=int,
                                   choices=[(n, f"{n} players") for n in QUEUE_SEATS],
                                   initial=4, widget=forms.RadioSelect)
    mode = forms.ChoiceField(label="Kind", choices=MODES, initial="casual",
                             widget=forms.RadioSelect)
    name = forms.CharField(label="Your name at the table", max_length=16, required=False,
                           help_text="1–16 letters, digits, spaces and . _ ' -")

    def __init__(self, *args: Any, needs_name: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = list(ladders().items())
        self.needs_name = needs_name
        if not needs_name:
            del self.fields["name"]

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip()
        if self.needs_name:
            problem = call_sign_problem(name)
            if problem:
                raise forms.ValidationError(problem)
        return name


class HistoryFilterForm(forms.Form):
    preset = forms.ChoiceField(label="Rules", required=False, choices=())
    kind = forms.ChoiceField(label="Kind", required=False,
                             choices=(("", "All games"), ("ranked", "Ranked"),
                                      ("casual", "Casual")))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", "All rules"), *ladders().items(),
                                         ("custom", "Custom rules")]
