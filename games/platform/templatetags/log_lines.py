"""`{% log_lines c.log "game/_log_line.html" %}`: a game log's list items, newest first, each
line rendered once.

A log line never changes once written, and a socket keeps its lines from push to push
(presenters.build_log's cache, one per socket and so per viewer), so each line's item is
rendered by the game's line template (which reads `line` alone) the first time it is listed
and kept on the line (LogLine.rendered): a push lists forty lines and renders one or two. The
line template's file may end with a newline; it is not part of the item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.platform.rendering import kept, render_unlocalized

register = template.Library()


@register.simple_tag
def log_lines(lines: Sequence[Any], line_template: str) -> SafeString:
    return SafeString("".join([log_line(line, line_template) for line in reversed(lines)]))


def log_line(line: Any, line_template: str) -> str:
    """One line's item; kept on the line when it has a `rendered` (a presenters.LogLine)."""
    rendered = getattr(line, "rendered", None)
    if rendered is not None:
        found = rendered.get(line_template)
        if found is not None:
            return found[1]
    html = render_unlocalized(line_template, {"line": line})
    if html.endswith("\n"):
        html = html[:-1]
    item = kept(html)
    if rendered is not None:
        rendered[line_template] = (line.key, item)
    return item
