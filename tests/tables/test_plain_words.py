"""The game log and the pending banner speak plain words, from each seat's point of view."""

from __future__ import annotations

from games.chudopoly.board import action_label, describe_pending, join_words
from games.chudopoly.engine.cards import build_deck
from games.chudopoly.game import describe_event

NAMES = ["Ann", "Bea", "Cy"]
DECK = build_deck()


def line(event: dict, viewer: int | None) -> str | None:
    return describe_event(event, viewer=viewer, names=NAMES, deck=DECK)


def test_a_rent_charge_reads_from_the_payers_side_and_a_watchers() -> None:
    event = {"type": "charge", "seat": 1, "kind": "rent", "targets": [0], "amount": 6,
             "colour": "red", "multiplier": 1}
    assert line(event, 0) == "Bea charged you 6M rent on Fighters."
    assert line(event, None) == "Bea charged Ann 6M rent on Fighters."
    assert line(event, 1) == "You charged Ann 6M rent on Fighters."


def test_a_surged_charge_to_everyone_names_them_all() -> None:
    event = {"type": "charge", "seat": 0, "kind": "rent", "targets": [1, 2], "amount": 12,
             "colour": "darkblue", "multiplier": 2}
    assert line(event, 2) == "Ann charged Bea and you 12M rent on Command (×2)."


def test_a_draw_shows_cards_only_to_the_drawer() -> None:
    card = {"id": 11, "name": "F-22 Raptor"}
    assert line({"type": "draw", "seat": 0, "count": 1, "cards": [card]}, 0) == \
        "You drew F-22 Raptor."
    assert line({"type": "draw", "seat": 0, "count": 2}, 1) == "Ann drew 2 cards."


def test_a_payment_names_the_cards_handed_over() -> None:
    event = {"type": "payment", "seat": 2, "to": 0, "amount": 5, "total": 6,
             "cards": [{"id": 1, "name": "3M"}, {"id": 2, "name": "Red Flag"}]}
    assert line(event, 0) == "Cy paid you 6M (owed 5M): 3M, Red Flag."


def test_the_pending_banner_says_who_must_answer() -> None:
    pending = {"kind": "midnight_requisition", "source": 1, "take": {"name": "F-22 Raptor"},
               "targets": [{"seat": 0, "responder": 0, "state": "respond", "depth": 0}]}
    assert describe_pending(pending, names=NAMES, me=0, view={}) == (
        "Bea played Midnight Requisition to take F-22 Raptor from you. Your answer is needed.")
    assert describe_pending(pending, names=NAMES, me=2, view={}) == (
        "Bea played Midnight Requisition to take F-22 Raptor from Ann. Waiting on Ann.")


def test_legal_actions_are_labelled_in_plain_words() -> None:
    view = {"players": [{"seat": 0, "zones": [{"colour": "red", "rent": 3}]}], "surge": 1}
    cards = {7: {"key": "rent_any", "name": "Rent: Any Colour"}}
    action = {"type": "action", "card": 7, "colour": "red", "target": 1}
    assert action_label(action, cards=cards, view=view, names=NAMES, me=0) == \
        "Charge Bea rent on Fighters (6M)"
    assert join_words(["Ann", "Bea", "you"]) == "Ann, Bea and you"


def test_a_blocked_action_names_who_played_opsec_and_whose_action_it_was() -> None:
    event = {"type": "blocked", "seat": 1, "source": 0, "kind": "finance_office", "depth": 1}
    assert line(event, None) == "Bea blocked Ann’s Finance Office with OPSEC."
    assert line(event, 0) == "Bea blocked your Finance Office with OPSEC."
    assert line(event, 1) == "You blocked Ann’s Finance Office with OPSEC."


def test_a_card_named_by_its_id_reads_as_its_own_rulesets_deck_names_it() -> None:
    """The game keeps the deck of the ruleset it last described: another ruleset's game
    described in between gets its own deck's names."""
    from games.chudopoly.engine.rulesets import PRESETS
    from games.chudopoly.game import ChudopolyGame

    game = ChudopolyGame()
    stock, faithful = dict(PRESETS["chudopoly"]), dict(PRESETS["mdFaithful"])
    last = len(build_deck(faithful["deck"])) - 1  # a pair wild there; stock has fewer cards
    assert build_deck(stock["deck"])[last].name != build_deck(faithful["deck"])[last].name

    def named(ruleset: dict) -> str | None:
        return game.describe_event({"type": "bank", "seat": 0, "card": last}, viewer=None,
                                   names=NAMES, ruleset=ruleset)

    faithful_line, stock_line = named(faithful), named(stock)
    assert build_deck(faithful["deck"])[last].name in (faithful_line or "")
    assert stock_line != faithful_line
    assert named(faithful) == faithful_line
