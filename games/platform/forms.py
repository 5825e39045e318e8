"""Forms for starting a table and taking a seat. Rule validation is the engine's job."""

from __future__ import annotations

from typing import Any

from django import forms

from games.chudopoly.game import CHOICE_LABELS, DECK_LABELS, TOGGLE_LABELS
from games.platform.identity import call_sign_problem
from games.platform.interface import RulesetInvalid, get_game
from games.platform.services import (
    RESPONSE_SECONDS_DEFAULT,
    RESPONSE_SECONDS_MAX,
    TURN_SECONDS_DEFAULT,
    TURN_SECONDS_MAX,
)

CUSTOM = "custom"
BOOL_TOGGLES = ("pureSetRequired", "counterCostsPlay", "passGoRestartsTurn")


def _deck_field(key: str) -> str:
    return f"deck_{key}"


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
    is_public = forms.BooleanField(label="List this table on the home page", required=False)

    def __init__(self, *args: Any, game_kind: str = "chudopoly", needs_name: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = get_game(game_kind)
        self.needs_name = needs_name
        if not needs_name:
            del self.fields["name"]
        else:
            self.fields["name"].required = True
        presets = self.engine.presets()
        self.fields["preset"].choices = [*presets.items(), (CUSTOM, "Custom")]
        self.fields["preset"].initial = next(iter(presets))
        self.fields["max_seats"].choices = [
            (n, str(n)) for n in range(self.engine.min_seats, self.engine.max_seats + 1)]
        base = self.engine.preset_rules()[next(iter(presets))]
        for key, values in self.engine.toggles().items():
            label = TOGGLE_LABELS.get(key, key)
            if key in BOOL_TOGGLES:
                self.fields[key] = forms.BooleanField(label=label, required=False,
                                                      initial=base[key])
            else:
                choices = [(str(v), CHOICE_LABELS.get(str(v), str(v))) for v in values]
                self.fields[key] = forms.ChoiceField(label=label, choices=choices,
                                                     initial=str(base[key]), required=False)
        for key, (lo, hi) in self.engine.deck_counts().items():
            self.fields[_deck_field(key)] = forms.IntegerField(
                label=DECK_LABELS.get(key, key), initial=base["deck"][key], required=False,
                widget=forms.NumberInput(attrs={"min": lo, "max": hi}),
                help_text=f"{lo}–{hi}")

    # Groups for the template.
    def toggle_fields(self) -> list[forms.BoundField]:
        return [self[k] for k in self.engine.toggles()]

    def deck_fields(self) -> list[forms.BoundField]:
        return [self[_deck_field(k)] for k in self.engine.deck_counts()]

    def preset_json(self) -> dict[str, Any]:
        """Each preset's values, so the page can fill the Custom fields from a preset."""
        out = {}
        for key, rules in self.engine.preset_rules().items():
            values: dict[str, Any] = {k: rules[k] for k in self.engine.toggles()}
            values.update({_deck_field(k): v for k, v in rules["deck"].items()})
            out[key] = values
        return out

    def ruleset_spec(self) -> dict[str, Any]:
        data = self.cleaned_data
        preset = data.get("preset")
        if preset != CUSTOM:
            return {"preset": preset}
        spec: dict[str, Any] = {"preset": next(iter(self.engine.presets()))}
        for key, values in self.engine.toggles().items():
            if key in BOOL_TOGGLES:
                spec[key] = bool(data.get(key))
                continue
            raw = data.get(key)
            if raw in (None, ""):
                continue
            # Hand the engine the same type its allowed values have (setsToWin is an int).
            match = next((v for v in values if str(v) == raw), raw)
            spec[key] = match
        deck = {}
        for key in self.engine.deck_counts():
            value = data.get(_deck_field(key))
            if value is not None:
                deck[key] = value
        if deck:
            spec["deck"] = deck
        return spec

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.resolved = self.engine.resolve_ruleset(self.ruleset_spec())
        except RulesetInvalid as exc:
            field = exc.field
            if field.startswith("deck."):
                field = _deck_field(field.split(".", 1)[1])
            if field not in self.fields:
                field = None  # a whole-deck problem: shown above the deck counts
            self.add_error(field, exc.message)
        turn, response = data.get("turn_seconds"), data.get("response_seconds")
        if turn is not None and not 0 <= turn <= TURN_SECONDS_MAX:
            self.add_error("turn_seconds", f"0 (off) to {TURN_SECONDS_MAX} seconds.")
        if response is not None and not 0 <= response <= RESPONSE_SECONDS_MAX:
            self.add_error("response_seconds", f"0 (off) to {RESPONSE_SECONDS_MAX} seconds.")
        return data


NO_BOT = ""
BOT_SLOTS = 4  # a table seats at most 5: you and four bots


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

    def __init__(self, *args: Any, needs_name: bool = True, **kwargs: Any) -> None:
        from games.chudopoly.bots import LEVEL_NAMES
        from games.platform.services import QUICK_PLAY_LEVELS

        super().__init__(*args, **kwargs)
        if not needs_name:
            del self.fields["name"]
        engine = get_game("chudopoly")
        presets = engine.presets()
        self.fields["preset"].choices = list(presets.items())
        self.fields["preset"].initial = next(iter(presets))
        levels = [(k, v) for k, v in LEVEL_NAMES.items() if k != "basic"]
        defaults = list(QUICK_PLAY_LEVELS)
        for i in range(BOT_SLOTS):
            self.fields[f"bot_{i + 1}"] = forms.ChoiceField(
                label=f"Bot {i + 1}", required=False,
                choices=[(NO_BOT, "No bot"), *levels],
                initial=defaults[i] if i < len(defaults) else NO_BOT)

    def bot_fields(self) -> list[forms.BoundField]:
        return [self[f"bot_{i + 1}"] for i in range(BOT_SLOTS)]

    def levels(self) -> list[str]:
        return [level for i in range(BOT_SLOTS)
                if (level := self.cleaned_data.get(f"bot_{i + 1}"))]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and not self.levels():
            raise forms.ValidationError("Choose at least one bot.")
        return data
