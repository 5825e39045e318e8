"""Rule presets, toggles, the 13 editable deck counts, and strict ruleset resolution.

A resolved ruleset is a plain dict:
    {"label", "winRule", "setsToWin", "pureSetRequired", "counterCostsPlay",
     "passGoRestartsTurn", "suddenDeath", "deck": {13 counts}}
`label` is a preset key only when every scalar and the whole deck match that preset exactly;
otherwise it is "custom" (REFERENCE §2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ACTIONS, DECK_KINDS, FIXED_CARDS, PAIR_WILDS, STOCK_COUNTS, deck_size

__all__ = [
    "DECK_MAX",
    "DECK_MIN",
    "EDITABLE_DECK_COUNTS",
    "MD_EQUIVALENTS",
    "MD_PRESET",
    "PRESETS",
    "PRESET_NAMES",
    "SCALAR_KEYS",
    "TOGGLES",
    "RulesetError",
    "normalize_deck",
    "resolve_ruleset",
]

DECK_MIN = 80
DECK_MAX = 130
ACTION_COUNT_MAX = 12

# kind -> (minimum, maximum) for the 13 counts a custom lobby may edit.
EDITABLE_DECK_COUNTS: dict[str, tuple[int, int]] = {
    **{k: (0, ACTION_COUNT_MAX) for k in ACTIONS},
    "wildAny": (0, 4),
    "wildPairs": (0, len(PAIR_WILDS)),
}

WIN_RULES = ("finalApproach", "mdFaithful", "instant")
SETS_TO_WIN_CHOICES = (3, 4, 5)
SUDDEN_DEATH_MODES = ("off", "oneLap", "escalate", "points")

# Toggle -> allowed values (for forms and the rules page).
TOGGLES: dict[str, tuple[Any, ...]] = {
    "winRule": WIN_RULES,
    "setsToWin": SETS_TO_WIN_CHOICES,
    "pureSetRequired": (False, True),
    "counterCostsPlay": (False, True),
    "passGoRestartsTurn": (False, True),
    "suddenDeath": SUDDEN_DEATH_MODES,
}
SCALAR_KEYS: tuple[str, ...] = tuple(TOGGLES)


class RulesetError(ValueError):
    """A refused ruleset spec. `field` names the offending key (e.g. "setsToWin", "deck.chud")."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _preset(label: str, deck: Mapping[str, int] | None = None, **scalars: Any) -> dict:
    rules = {
        "label": label,
        "winRule": "finalApproach",
        "setsToWin": 3,
        "pureSetRequired": False,
        "counterCostsPlay": False,
        "passGoRestartsTurn": False,
        "suddenDeath": "off",
    }
    rules.update(scalars)
    rules["deck"] = {**STOCK_COUNTS, **(deck or {})}
    return rules


PRESETS: dict[str, dict] = {
    "chudopoly": _preset("chudopoly"),
    "mdFaithful": _preset(
        "mdFaithful", deck={"chud": 0, "wildPairs": 9}, winRule="mdFaithful",
        pureSetRequired=True, counterCostsPlay=True,
    ),
    "blitz": _preset("blitz", winRule="instant", passGoRestartsTurn=True),
    "longGame": _preset("longGame", setsToWin=5),
}
PRESET_NAMES: dict[str, str] = {
    "chudopoly": "Chudopoly",
    "mdFaithful": "MD Faithful",
    "blitz": "Blitz",
    "longGame": "Long Game",
}
DEFAULT_PRESET = "chudopoly"

# The Monopoly Deal card each of our action kinds stands for (None: no counterpart), for the
# page that sets the official rules beside ours.
MD_EQUIVALENTS: dict[str, str | None] = {
    "inspector_general": "Deal Breaker",
    "opsec": "Just Say No",
    "midnight_requisition": "Sly Deal",
    "tdy_orders": "Forced Deal",
    "finance_office": "Debt Collector",
    "roll_call": "It's My Birthday",
    "pcs_orders": "Pass Go",
    "upgrade": "House",
    "foc": "Hotel",
    "surge_ops": "Double The Rent",
    "chud": None,
}
MD_PRESET = "mdFaithful"
_SPEC_KEYS = frozenset(("preset", "label", *SCALAR_KEYS, "deck"))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_deck(raw: Any, base: Mapping[str, int]) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise RulesetError("deck", "Deck composition must be an object")
    out = dict(base)
    for key, value in raw.items():
        if key not in EDITABLE_DECK_COUNTS:
            raise RulesetError(f"deck.{key}", f'Unknown deck card "{key}"')
        lo, hi = EDITABLE_DECK_COUNTS[key]
        if not _is_int(value) or not lo <= value <= hi:
            raise RulesetError(f"deck.{key}", f'Invalid count for "{key}" ({lo}–{hi})')
        out[key] = value
    size = deck_size(out)
    if not DECK_MIN <= size <= DECK_MAX:
        raise RulesetError(
            "deck", f"Deck must hold {DECK_MIN}–{DECK_MAX} cards (that one holds {size})"
        )
    return out


def _label(rules: Mapping[str, Any]) -> str:
    for name, preset in PRESETS.items():
        if all(preset[k] == rules[k] for k in SCALAR_KEYS) and preset["deck"] == rules["deck"]:
            return name
    return "custom"


def resolve_ruleset(spec: Mapping[str, Any] | None = None) -> dict:
    """Strictly resolve a lobby spec into a ruleset dict, or raise `RulesetError`.

    Start from the named preset (absent means chudopoly), then apply each toggle and the deck
    override (merged over the preset's deck). A resolved ruleset resolves to itself. Under
    winRule "instant" suddenDeath is forced to "off" (nothing is ever armed there).
    """
    if spec is None:
        spec = {}
    if not isinstance(spec, Mapping):
        raise RulesetError("ruleset", "Ruleset must be an object")
    for key in spec:
        if key not in _SPEC_KEYS:
            raise RulesetError(str(key), f'Unknown rule "{key}"')
    preset = spec.get("preset")
    if preset is None or preset == "custom":
        preset = DEFAULT_PRESET
    if preset not in PRESETS:
        raise RulesetError("preset", f"Unknown preset (choose {', '.join(PRESETS)})")
    base = PRESETS[preset]
    rules = {k: base[k] for k in SCALAR_KEYS}

    if "winRule" in spec:
        if spec["winRule"] not in WIN_RULES:
            raise RulesetError("winRule", f"winRule must be one of {', '.join(WIN_RULES)}")
        rules["winRule"] = spec["winRule"]
    if "setsToWin" in spec:
        v = spec["setsToWin"]
        if not _is_int(v) or v not in SETS_TO_WIN_CHOICES:
            raise RulesetError("setsToWin", "setsToWin must be 3, 4 or 5")
        rules["setsToWin"] = v
    for flag in ("pureSetRequired", "counterCostsPlay", "passGoRestartsTurn"):
        if flag in spec:
            if not isinstance(spec[flag], bool):
                raise RulesetError(flag, f"{flag} must be true or false")
            rules[flag] = spec[flag]
    if "suddenDeath" in spec:
        if spec["suddenDeath"] not in SUDDEN_DEATH_MODES:
            raise RulesetError(
                "suddenDeath", f"suddenDeath must be one of {', '.join(SUDDEN_DEATH_MODES)}"
            )
        rules["suddenDeath"] = spec["suddenDeath"]
    if rules["winRule"] == "instant":
        rules["suddenDeath"] = "off"
    rules["deck"] = _check_deck(spec["deck"], base["deck"]) if "deck" in spec else dict(
        base["deck"])
    return {"label": _label(rules), **rules}


def normalize_deck(raw: Any, base: Mapping[str, int] | None = None) -> dict[str, int]:
    """The original engine's lenient normaliser (REFERENCE §1.7), kept for imports of old data:
    unknown keys and non-integers are ignored, integers are clamped, and a total outside
    80–130 drops the whole override."""
    out = dict(base or STOCK_COUNTS)
    if isinstance(raw, Mapping):
        for key in DECK_KINDS:
            v = raw.get(key)
            if _is_int(v):
                lo, hi = EDITABLE_DECK_COUNTS[key]
                out[key] = max(lo, min(hi, v))
    if not DECK_MIN <= deck_size(out) <= DECK_MAX:
        return dict(base or STOCK_COUNTS)
    return out


assert FIXED_CARDS == 61
