"""The one card component: every card of any deck draws as a card (colour band and set symbol,
name, rent ladder, value coin, action text), colours read at 4.5:1, and the site CSS carries
every colour class the component uses."""

from __future__ import annotations

import re
from pathlib import Path

from django.template.loader import render_to_string

from games.chudopoly.engine.cards import ACTIONS, COLOURS, build_deck, card_dict
from games.chudopoly.templatetags.chudopoly import (
    card_back,
    colour_css,
    contrast,
    event_cards,
    gallery_cards,
    ink_for,
    render_card,
)

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()
BIG_DECK = {"wildAny": 4, "wildPairs": 9, "chud": 12, "opsec": 12}


def test_every_card_of_a_deck_is_drawn_with_what_its_face_needs() -> None:
    for deck in (build_deck(), build_deck(BIG_DECK)):
        for card in deck:
            html = str(render_card(card_dict(card)))
            assert f'data-card-id="{card.id}"' in html
            assert f"k-{card.kind}" in html
            assert 'class="card-band' in html and "<svg" in html
            if card.value:
                assert f"{card.value}M</span>" in html
            if card.kind == "property":
                colour = COLOURS[card.colours[0]]
                assert f"c1-{colour.key}" in html
                assert len(re.findall(r'class="rung[ "]', html)) == len(colour.rents)
            elif card.key == "wild_pair":
                a, b = card.colours
                assert f"c1-{a}" in html and f"c2-{b}" in html
                assert "card-rent r1" in html and "card-rent r2" in html  # both halves
            elif card.kind == "action":
                assert ACTIONS[card.key].text.split(".")[0][:30].replace("'", "&#x27;") in html


def test_a_placed_wild_shows_which_colour_it_is_in() -> None:
    wild = next(c for c in build_deck() if c.key == "wild_pair")
    assert "on-2" in str(render_card(card_dict(wild, wild.colours[1])))
    rainbow = next(c for c in build_deck() if c.key == "wild_any")
    assert "c1-red" in str(render_card(card_dict(rainbow, "red")))


def test_names_are_escaped() -> None:
    html = str(render_card({"id": 1, "kind": "action", "key": "x", "name": "<b>&", "value": 1}))
    assert "<b>" not in html and "&lt;b&gt;&amp;" in html


def test_the_include_and_the_tag_draw_the_same_card() -> None:
    # ladder/_replay_frame.html includes chudopoly/_card.html: the name stays.
    card = card_dict(build_deck()[0], "brown")
    assert render_to_string("chudopoly/_card.html", {"card": card}).strip() == str(
        render_card(card))


def test_card_backs_carry_no_card() -> None:
    assert "data-card-id" not in str(card_back())


def test_every_set_colour_has_readable_ink_and_a_css_class() -> None:
    for colour in COLOURS.values():
        assert contrast(colour.bg, ink_for(colour.bg)) >= 4.5, colour
    for rule in colour_css().splitlines():
        assert rule in CSS, f"static/css/site.css lacks {rule}"


def test_log_peeks_take_only_card_faces_from_events() -> None:
    f22 = card_dict(build_deck()[11])
    events = [{"type": "steal", "card": f22, "moves": [[11, 1, "red"]]},
              {"type": "draw", "count": 2}]
    assert event_cards(events) == [f22]


def test_the_rules_gallery_shows_every_action_and_every_colour() -> None:
    shown = {c["name"] for _, cards in gallery_cards() for c in cards}
    assert {a.name for a in ACTIONS.values()} <= shown
    colours = {c["colours"][0] for _, cards in gallery_cards() for c in cards
               if c["kind"] == "property"}
    assert colours == set(COLOURS)
    html = render_to_string("chudopoly/_card_gallery.html",
                            {"groups": gallery_cards()})
    assert not re.search(r'data-card-id="', html)
