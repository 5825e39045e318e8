"""The Monopoly Deal rules page (official rules, sources, every departure) and the "How this
differs from the original" section of /rules, both read from the engine's presets."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.chudopoly.engine.rulesets import MD_PRESET, PRESETS, TOGGLES

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _departure_keys(html: str) -> set[str]:
    return set(re.findall(r'<tr data-rule="([^"]+)">', html))


def _preset_differences() -> set[str]:
    ours, md = PRESETS["chudopoly"], PRESETS[MD_PRESET]
    keys = {k for k in TOGGLES if ours[k] != md[k]}
    keys |= {f"deck.{k}" for k in md["deck"] if ours["deck"][k] != md["deck"][k]}
    return keys


def test_the_monopoly_deal_page_sets_out_the_official_rules_with_sources(client: Client) -> None:
    response = client.get("/rules/monopoly-deal")
    assert response.status_code == 200
    text = _text(response.content.decode())
    for phrase in ("Draw 2 cards", "draw 5 instead", "Play up to 3 cards", "at most 7 cards",
                   "There is no change", "Just Say No (OPSEC) cancels", "Sources",
                   "The deck holds 106 cards: 28 properties, 11 property wilds"):
        assert phrase in text, phrase


def test_every_monopoly_deal_action_is_named_beside_ours_with_its_count(client: Client) -> None:
    html = client.get("/rules/monopoly-deal").content.decode()
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td><td>(\d+)</td>', html)
    named = {md: (ours, int(n)) for md, ours, n in rows}
    assert named["Just Say No"] == ("OPSEC", 3)
    assert named["Deal Breaker"] == ("Inspector General", 2)
    assert named["Pass Go"] == ("PCS Orders", 10)
    assert sum(n for _, n in named.values()) == 34  # the official action count
    assert "THE CHUD CARD" not in {ours for ours, _ in named.values()}


def test_every_rule_the_chudopoly_preset_changes_is_listed_by_name(client: Client) -> None:
    html = client.get("/rules/monopoly-deal").content.decode()
    assert _departure_keys(html) == _preset_differences()
    text = _text(html)
    for rule in ("When the win lands", "Sets of multicolour wilds only",
                 "Just Say No on your own turn", "THE CHUD CARD (no Monopoly Deal card)",
                 "Two-colour property wilds", "More properties than a set holds",
                 "Paying with multicolour wilds", "A game that cannot finish"):
        assert rule in text, rule
    assert "shuffled back 16 times" in text and "up to 12 moves a turn" in text


def test_the_rules_page_says_how_it_differs_from_the_original(client: Client) -> None:
    html = client.get("/rules/chudopoly").content.decode()
    section = html[html.index('<section id="original">'):]
    assert "How this differs from the original" in section
    assert 'href="/rules/monopoly-deal"' in section
    assert _departure_keys(section) == _preset_differences()
