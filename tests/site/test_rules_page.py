"""Our /rules page states every number of the Chudopoly rules page, read from the engine."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client

SEED = (Path(__file__).parent / "fixtures" / "rules_page_seed.txt").read_text()


def _seed_table(first_header: str) -> list[list[str]]:
    """Rows of the seed page's markdown table whose header starts with `first_header`."""
    lines = SEED.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


class _TableRows(HTMLParser):
    """Collects the text of each row of the table with a given id."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.inside, self.rows, self.cell = table_id, False, [], None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join(self.cell.split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell += data


@pytest.fixture
def rules_html(client: Client) -> str:
    response = client.get("/rules/chudopoly")
    assert response.status_code == 200
    return response.content.decode()


def _rows(html: str, table_id: str) -> list[list[str]]:
    parser = _TableRows(table_id)
    parser.feed(html)
    return parser.rows[1:]  # without the header row


@pytest.mark.django_db
def test_the_set_and_rent_table_matches_the_rules_page_row_for_row(rules_html: str) -> None:
    assert _rows(rules_html, "rules-sets") == _seed_table("Set")


@pytest.mark.django_db
def test_every_action_card_has_the_count_and_bank_value_of_the_rules_page(rules_html: str) -> None:
    ours = {row[0]: row[1:3] for row in _rows(rules_html, "rules-actions")}
    seed = _seed_table("Card")
    assert len(ours) == len(seed) == 11
    for name, count, value, _text in seed:
        assert ours[name] == [count, value], name


@pytest.mark.django_db
def test_the_deck_family_totals_match_the_rules_page(rules_html: str) -> None:
    assert _rows(rules_html, "rules-families") == _seed_table("Family")


@pytest.mark.django_db
def test_the_presets_table_matches_the_rules_page(rules_html: str) -> None:
    ours = _rows(rules_html, "rules-presets")
    seed = _seed_table("Preset")
    assert [row[:2] for row in ours] == [row[:2] for row in seed]
    assert [row[2] for row in ours] == [row[2] for row in seed]


@pytest.mark.django_db
def test_the_turn_numbers_and_upgrade_bonuses_are_stated(rules_html: str) -> None:
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", rules_html))
    for phrase in (
        "automatic draw of 2 cards, or 5 if your hand is empty",
        "Play up to 3 cards",
        "at most 7 cards",
        "Upgrade adds +3M",
        "a further +4M",
        "shuffled back 16 times",
        "up to 12 moves per turn",
        "costs 2 moves",
        "hold 80–130 cards",
    ):
        assert phrase in text, phrase
