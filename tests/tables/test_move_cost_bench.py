"""bench/move_cost.py still drives the real consumer path end to end (it broke silently once,
when the mover's group message moved to the event loop)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_move_cost_benchmark_plays_moves_and_every_push_reaches_the_other_seats() -> None:
    result = subprocess.run(
        [sys.executable, "bench/move_cost.py", "--sqlite", "--tables", "2", "--moves", "40"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "refused" not in result.stdout
    line = result.stdout.strip().splitlines()[-1]
    moves = int(line.split()[0])
    assert moves >= 30, line
    assert "ms CPU" in line and "queries per move" in line


def test_the_scripted_player_applies_a_pushed_panel_where_its_page_holds_it() -> None:
    """bench/liveplay.py reads its forms from a page kept as htmx keeps it: a panel pushed
    alone replaces the one in the players partial; the log's swaps by selector are left out."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import liveplay
    finally:
        sys.path.remove(str(ROOT / "bench"))
    page: dict[str, str] = {}
    liveplay.apply_frame(page, '<section id="players" hx-swap-oob="true"><div>'
                               '<details class="p" id="seat-1">old<details>x</details></details>'
                               '<article id="seat-0">mine</article></div></section>\n'
                               '<section id="log" hx-swap-oob="true"><ol></ol></section>')
    liveplay.apply_frame(page, '<input type="hidden" id="table-version" name="expected_version"'
                               ' value="7" hx-swap-oob="true">\n'
                               '<details hx-swap-oob="true" class="p" id="seat-1">new</details>\n'
                               '<ol hx-swap-oob="afterbegin:#log ol"><li data-k="1.0">x</li></ol>')
    assert page["players"] == ('<section id="players" hx-swap-oob="true"><div>'
                               '<details class="p" id="seat-1">new</details>'
                               '<article id="seat-0">mine</article></div></section>\n')
    assert page["log"] == '<section id="log" hx-swap-oob="true"><ol></ol></section>'
    assert liveplay.version_in(page["table-version"]) == 7
