"""The table's UI checks (tests/ui/ui_helpers.py) measure a page that has stopped moving: a
44 px button in a panel still rising measures a fraction of a pixel short."""

from __future__ import annotations

from typing import Any

import pytest
from ui_helpers import check_layout

pytestmark = pytest.mark.browser

# A decision panel rising into place (as .decision-panel.active does) and a clock that blinks
# for ever (as a low clock does).
PAGE = """<!doctype html><title>still</title><style>
@keyframes rise { from { transform: translateY(12.3px); } to { transform: none; } }
@keyframes blink { 50% { opacity: .6; } }
.panel { animation: rise 1.5s linear; } .clock { animation: blink 1s steps(2) infinite; }
button { min-height: 44px; min-width: 44px; }
</style><div class="panel"><button>Roll the dice</button></div><p class="clock">0:09</p>"""

RUNNING = """() => document.getAnimations().filter(a => a.playState === 'running')
                                         .map(a => a.animationName).sort()"""


def test_the_layout_check_waits_for_a_rising_panel_but_not_for_a_blinking_clock(
        desktop: Any) -> None:
    desktop.set_content(PAGE)
    assert desktop.evaluate(RUNNING) == ["blink", "rise"]
    check_layout(desktop, "a rising panel")
    assert desktop.evaluate(RUNNING) == ["blink"]
