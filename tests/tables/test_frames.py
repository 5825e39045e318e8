"""The table socket's frame format: strict parsing before anything else happens."""

from __future__ import annotations

import json

import pytest

from games.platform.frames import MAX_FRAME_BYTES, FrameError, parse_frame


def frame(**fields: object) -> str:
    return json.dumps(fields)


def test_a_form_frame_from_htmx_becomes_an_action_and_a_version() -> None:
    parsed = parse_frame(frame(kind="act", action='{"type":"place","card":3,"colour":"red"}',
                               expected_version="12", HEADERS={"HX-Request": "true"}))
    assert parsed.kind == "act" and parsed.expected_version == 12
    assert parsed.action == {"type": "place", "card": 3, "colour": "red"}


def test_checkboxes_fill_in_the_cards_of_a_payment() -> None:
    many = parse_frame(frame(action='{"type":"pay"}', cards=["4", "9"], expected_version=1))
    one = parse_frame(frame(action='{"type":"pay"}', cards="4", expected_version=1))
    none = parse_frame(frame(action='{"type":"pay"}', expected_version=1))
    assert many.action == {"type": "pay", "cards": [4, 9]}
    assert one.action == {"type": "pay", "cards": [4]}
    assert none.action == {"type": "pay", "cards": []}


def test_a_program_may_send_the_action_as_an_object() -> None:
    parsed = parse_frame(frame(action={"type": "respond", "answer": "accept", "target": 2},
                               expected_version=0, seat=1))
    assert parsed.action == {"type": "respond", "answer": "accept", "target": 2}
    assert parsed.seat == 1


def test_a_deal_offer_carries_both_sides_as_objects() -> None:
    offer = {"type": "offer", "to": 2, "give": {"projects": [3], "cash": "40"},
             "get": {"projects": [], "jail_card": True}}
    parsed = parse_frame(frame(action=json.dumps(offer), expected_version=5))
    assert parsed.action == {"type": "offer", "to": 2, "give": {"projects": [3], "cash": 40},
                             "get": {"projects": [], "jail_card": True}}


def test_keeping_no_card_is_a_null_card() -> None:
    parsed = parse_frame(frame(action='{"type":"keep","card":null}', expected_version=1))
    assert parsed.action == {"type": "keep", "card": None}


def test_a_chat_frame_carries_its_text() -> None:
    parsed = parse_frame(frame(kind="chat", text="gg"))
    assert (parsed.kind, parsed.text) == ("chat", "gg")


@pytest.mark.parametrize(("text", "why"), [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    (frame(action='{"type":"end_turn"}'), "expected_version"),
    (frame(expected_version=1), "move is missing"),
    (frame(action='{"type":"end_turn"}', expected_version="x"), "whole number"),
    (frame(action='{"type":"end_turn"}', expected_version=True), "whole number"),
    (frame(action='{"card":1}', expected_version=1), "needs a type"),
    (frame(action='{"type":"bank","card":"one"}', expected_version=1), "whole number"),
    (frame(action='{"type":"bank","evil":1}', expected_version=1), "Unknown action field"),
    (frame(action="[]", expected_version=1), "must be an object"),
    (frame(action='{"type":"end_turn"}', expected_version=1, sneaky=1), "Unknown field"),
    (frame(kind="dance"), "Unknown kind"),
    (frame(kind="chat"), "Chat text"),
    (frame(action='{"type":"pay"}', cards=list(range(100)), expected_version=1), "Too many"),
    (frame(action='{"type":"offer","get":5}', expected_version=1), "one side of a deal"),
    (frame(action='{"type":"offer","give":{"rent":1}}', expected_version=1), "Unknown field"),
    (frame(action='{"type":"offer","give":{"jail_card":1}}', expected_version=1),
     "true or false"),
    (frame(action='{"type":"ride","first":7}', expected_version=1), "short text"),
])
def test_a_malformed_frame_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(FrameError) as refused:
        parse_frame(text)
    assert why in refused.value.message


def test_an_oversized_frame_is_refused_before_parsing() -> None:
    with pytest.raises(FrameError) as refused:
        parse_frame(frame(kind="chat", text="x" * MAX_FRAME_BYTES))
    assert refused.value.code == "oversized"


def test_binary_frames_are_refused() -> None:
    with pytest.raises(FrameError):
        parse_frame(None, b"\x00\x01")
