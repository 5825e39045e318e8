"""Forms for starting a table and taking a seat. Rule validation is the engine's job."""

from __future__ import annotations

from typing import Any

from django import forms

from games.platform.identity import call_sign_problem
from games.platform.interface import RuleField, RulesetInvalid, default_game, get_game
from games.platform.services import (
    RESPONSE_SECONDS_DEFAULT,
    RESPONSE_SECONDS_MAX,
    TURN_SECONDS_DEFAULT,
    TURN_SECONDS_MAX,
)

CUSTOM = "custom"


def _rule_field(field: RuleField, initial: Any) -> forms.Field:
    """The Django field for one of the game's Custom rules (games.platform.interface)."""
    if field.kind == "bool":
        return forms.BooleanField(label=field.label, required=False, initial=initial)
    if field.kind == "choice":
        return forms.ChoiceField(label=field.label, choices=list(field.choices),
                                 initial=None if initial is None else str(initial),
                                 required=False)
    return forms.IntegerField(
        label=field.label, initial=initial, required=False,
        widget=forms.NumberInput(attrs={"min": field.low, "max": field.high}),
        help_text=f"{field.low}–{field.high}")


class NameField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=16, strip=True, label="Your name at the table",
                         help_text="1–16 letters, digits, spaces and . _ ' -", **kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value:
            problem = call_sign_problem(value)
            if problem:
                raise forms.ValidationError(problem)


class JoinForm(forms.Form):
    name = NameField(required=True)


def _drop_table_clocks(form: forms.Form, engine: Any) -> str | None:
    """A game with its own clocks (games/platform/clocks.py) has no clock fields to set: the
    form says what its clocks are instead (the words, or None for a game without them)."""
    if not callable(getattr(engine, "clock_seconds", None)):
        return None
    del form.fields["turn_seconds"]
    del form.fields["response_seconds"]
    return str(getattr(engine, "clock_words", "the game's own clocks"))


class TableForm(forms.Form):
    """Preset or Custom rules, seats, clocks and visibility. The engine validates the rules:
    its `RulesetError(field, message)` lands next to the field it names."""

    name = NameField(required=False)
    preset = forms.ChoiceField(label="Rules")
    max_seats = forms.TypedChoiceField(label="Seats", coerce=int, initial=4)
    turn_seconds = forms.IntegerField(
        label="Turn clock (seconds)", initial=TURN_SECONDS_DEFAULT,
        help_text=f"0 (off) to {TURN_SECONDS_MAX}; at least 30 once two people play.")
    response_seconds = forms.IntegerField(
        label="Response clock (seconds)", initial=RESPONSE_SECONDS_DEFAULT,
        help_text=f"0 (off) to {RESPONSE_SECONDS_MAX}; at least 15 once two people play.")
    is_public = forms.BooleanField(label="List this table on the home page and its game’s page",
                                   required=False)

    def __init__(self, *args: Any, game_kind: str | None = None, needs_name: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = get_game(game_kind or default_game())
        self.own_clocks = _drop_table_clocks(self, self.engine)
        self.needs_name = needs_name
        if not needs_name:
            del self.fields["name"]
        else:
            self.fields["name"].required = True
        presets = self.engine.presets()
        self.rule_fields = self.engine.rule_fields()
        # "Custom" only for a game with Custom rules to set.
        custom = [(CUSTOM, "Custom")] if self.rule_fields else []
        self.fields["preset"].choices = [*presets.items(), *custom]
        self.fields["preset"].initial = next(iter(presets))
        self.fields["max_seats"].choices = [
            (n, str(n)) for n in range(self.engine.min_seats, self.engine.max_seats + 1)]
        base = self.engine.preset_fields()[next(iter(presets))]
        for field in self.rule_fields:
            self.fields[field.name] = _rule_field(field, base.get(field.name))

    # Groups for the template: the rules, then the card counts.
    def toggle_fields(self) -> list[forms.BoundField]:
        return [self[f.name] for f in self.rule_fields if f.group != "counts"]

    def deck_fields(self) -> list[forms.BoundField]:
        return [self[f.name] for f in self.rule_fields if f.group == "counts"]

    def preset_json(self) -> dict[str, Any]:
        """Each preset's values, so the page can fill the Custom fields from a preset."""
        return self.engine.preset_fields()

    def ruleset_spec(self) -> dict[str, Any]:
        data = self.cleaned_data
        preset = data.get("preset")
        if preset != CUSTOM:
            return {"preset": preset}
        return self.engine.custom_spec({f.name: data.get(f.name) for f in self.rule_fields})

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.resolved = self.engine.resolve_ruleset(self.ruleset_spec())
        except RulesetInvalid as exc:
            # None: a problem of no one field (a whole deck), shown above the card counts.
            self.add_error(self.engine.rule_field_for(exc.field), exc.message)
        turn, response = data.get("turn_seconds"), data.get("response_seconds")
        if turn is not None and not 0 <= turn <= TURN_SECONDS_MAX:
            self.add_error("turn_seconds", f"0 (off) to {TURN_SECONDS_MAX} seconds.")
        if response is not None and not 0 <= response <= RESPONSE_SECONDS_MAX:
            self.add_error("response_seconds", f"0 (off) to {RESPONSE_SECONDS_MAX} seconds.")
        return data


NO_BOT = ""


class PlayBotsForm(forms.Form):
    """Play against bots: 1–4 bots, each one's level, the rules and the clocks. Nobody else
    can sit down, so the clocks may be off (RULINGS: "off" needs fewer than two humans)."""

    name = NameField(required=True)
    preset = forms.ChoiceField(label="Rules")
    turn_seconds = forms.IntegerField(
        label="Turn clock (seconds)", initial=0, min_value=0, max_value=TURN_SECONDS_MAX,
        help_text=f"0 (off) to {TURN_SECONDS_MAX}.")
    response_seconds = forms.IntegerField(
        label="Response clock (seconds)", initial=RESPONSE_SECONDS_DEFAULT, min_value=0,
        max_value=RESPONSE_SECONDS_MAX, help_text=f"0 (off) to {RESPONSE_SECONDS_MAX}.")

    def __init__(self, *args: Any, game_kind: str | None = None, needs_name: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not needs_name:
            del self.fields["name"]
        engine = get_game(game_kind or default_game())
        self.own_clocks = _drop_table_clocks(self, engine)
        presets = engine.presets()
        self.fields["preset"].choices = list(presets.items())
        self.fields["preset"].initial = next(iter(presets))
        levels = list(engine.bot_levels().items())
        defaults = engine.quick_play_levels()
        # You and up to the game's largest table less one bots (Chudopoly 4, Boardroom 5).
        self.bot_slots = engine.max_seats - 1
        for i in range(self.bot_slots):
            self.fields[f"bot_{i + 1}"] = forms.ChoiceField(
                label=f"Bot {i + 1}", required=False,
                choices=[(NO_BOT, "No bot"), *levels],
                initial=defaults[i] if i < len(defaults) else NO_BOT)

    def bot_fields(self) -> list[forms.BoundField]:
        return [self[f"bot_{i + 1}"] for i in range(self.bot_slots)]

    def levels(self) -> list[str]:
        return [level for i in range(self.bot_slots)
                if (level := self.cleaned_data.get(f"bot_{i + 1}"))]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and not self.levels():
            raise forms.ValidationError("Choose at least one bot.")
        return data
