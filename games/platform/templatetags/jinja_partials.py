"""`{% jinja_partial "game/_tiles.html" c=board %}`: a Jinja2 partial (a game's `jinja2/`
folder, games/platform/jinja.py) printed into a Django template with the given values alone.

Django's `{% include %}` finds only Django templates; a page that is not pushed (a replay's
frame, templates/ladder/_replay_frame.html) draws the board from the very partials the pushes
render, not from a copy of them."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.platform.rendering import render_unlocalized

register = template.Library()


@register.simple_tag
def jinja_partial(name: str, **values: Any) -> SafeString:
    return SafeString(render_unlocalized(str.__str__(name), values))
