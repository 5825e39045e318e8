"""The table page's weight (bench/page_weight.py): HTML + CSS + JS under 100 KB gzip, and
nothing loaded from another site."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from page_weight import BUDGET, table_page_as_player, weigh


@pytest.mark.django_db
def test_the_table_page_mid_game_weighs_under_100_kb_gzip() -> None:
    html, frame = table_page_as_player(decisions=40)
    assert 'id="hand"' in html and "data-card-id" in html
    result = weigh(html, frame)
    assert result["total_gzip"] < BUDGET, result
    linked = [r["what"] for r in result["rows"][1:]]
    assert any(p.endswith("htmx-2.min.js") for p in linked)
    assert any(p.endswith("table.js") for p in linked)
