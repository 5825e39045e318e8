"""How the players and log partials split into pieces a push may send alone
(games/platform/pieces.py, GameEngine.board_pieces).

Most moves change one or two players' panels and add a line or two to the log, yet both
partials were sent whole to every seat after every move: about three quarters of a push's
bytes. Each piece is made by the very call the partial's template makes (memoized, so asking
again costs a lookup), from the same seat's context: a piece holds nothing the partial did
not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.chudopoly.templatetags.chudopoly import log_item_pieces, my_panel, opponent_panel
from games.platform.pieces import Elements, NewestFirst

# The log's list and one of its lines on the page (chudopoly/_log.html, log_item).
LOG_LIST = "#log ol.game-log"
LOG_LINE = '#log li[data-k="{key}"]'


def log_pieces(c: Mapping[str, Any]) -> NewestFirst:
    """The log's lines, newest first, as chudopoly/_log.html lists them."""
    return NewestFirst(items=log_item_pieces(c.get("log") or []), list_selector=LOG_LIST,
                       item_selector=LOG_LINE)


def players_pieces(c: Mapping[str, Any]) -> Elements:
    """Each seat's panel by its id (seat-N), in the order chudopoly/_players.html shows them:
    the opponents, then the viewer's own board."""
    players = c.get("players") or []
    items = [(f"seat-{p['seat']}", str(opponent_panel(p, c.get("result"), c.get("panels"),
                                                      c.get("panel_keys"))))
             for p in players if not p.get("is_me")]
    items += [(f"seat-{p['seat']}", str(my_panel(p, c))) for p in players if p.get("is_me")]
    return Elements(items=items)
