"""The quick-match form and the history filters."""

from __future__ import annotations

from typing import Any

from django import forms

from games.platform.identity import call_sign_problem
from games.platform.interface import default_game, get_game, registered_games
from ladder.services import ladders, queue_seats

MODES = (("casual", "Casual (anyone, unrated)"), ("ranked", "Ranked (account needed, rated)"))


def game_choices() -> list[tuple[str, str]]:
    """Every game on the site as (key, name), in the registry's order."""
    return [(kind, get_game(kind).name) for kind in registered_games()]


class QueueForm(forms.Form):
    """One game's queues: its presets and its quick-match table sizes (`game_kind`, the
    default game's unless named); the game itself travels in a hidden field."""

    game = forms.ChoiceField(widget=forms.HiddenInput, choices=(), required=False)
    preset = forms.ChoiceField(label="Rules", choices=())
    seats = forms.TypedChoiceField(label="Players", coerce=int, choices=(),
                                   widget=forms.RadioSelect)
    mode = forms.ChoiceField(label="Kind", choices=MODES, initial="casual",
                             widget=forms.RadioSelect)
    name = forms.CharField(label="Your name at the table", max_length=16, required=False,
                           help_text="1–16 letters, digits, spaces and . _ ' -")

    def __init__(self, *args: Any, needs_name: bool = True, game_kind: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_kind = game_kind or default_game()
        self.fields["game"].choices = game_choices()
        self.fields["game"].initial = self.game_kind
        presets = list(ladders(self.game_kind).items())
        self.fields["preset"].choices = presets
        if len(presets) == 1:  # the stock rules only (Boardroom): nothing to choose
            self.fields["preset"].widget = forms.HiddenInput()
            self.fields["preset"].initial = presets[0][0]
        sizes = queue_seats(self.game_kind)
        self.fields["seats"].choices = [(n, f"{n} players") for n in sizes]
        self.fields["seats"].initial = 4 if 4 in sizes else sizes[0]
        self.needs_name = needs_name
        if not needs_name:
            del self.fields["name"]

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or self.game_kind

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip()
        if self.needs_name:
            problem = call_sign_problem(name)
            if problem:
                raise forms.ValidationError(problem)
        return name


class HistoryFilterForm(forms.Form):
    game = forms.ChoiceField(label="Game", required=False, choices=())
    preset = forms.ChoiceField(label="Rules", required=False, choices=())
    kind = forms.ChoiceField(label="Kind", required=False,
                             choices=(("", "All games"), ("ranked", "Ranked"),
                                      ("casual", "Casual")))

    def __init__(self, *args: Any, game_kind: str = "", **kwargs: Any) -> None:
        """`game_kind` narrows the rules to that game's presets ("": every game's, by key)."""
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "Every game"), *game_choices()]
        presets: dict[str, str] = {}
        for kind in [game_kind] if game_kind else registered_games():
            for key, name in ladders(kind).items():
                presets.setdefault(key, name)
        self.fields["preset"].choices = [("", "All rules"), *presets.items(),
                                         ("custom", "Custom rules")]
