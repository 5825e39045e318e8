"""The platform's template tags as the Jinja2 board partials call them (games/platform/jinja.py
installs them in every environment it builds).

Each shares its work, its caches and their keys with the Django tag it stands for, so a partial
prints the same HTML whichever engine renders it, and a render one engine kept serves the other:

- `{{ include_each("g/_tile.html", c.tiles, "t") }}` for
  `{% include_each "g/_tile.html" c.tiles "t" %}` (templatetags/shared_includes.py: each
  item's render kept by its content, and the joined whole by the list's; with a fourth
  argument `false`, the whole is not kept: a list that is one screen's own, such as a hand,
  whose whole the partial's own key keeps already);
- `{{ include_only("g/_card.html", card=t.card) }}` for
  `{% include "g/_card.html" with card=t.card only %}` (kept by the values' content);
- `{{ log_lines(c.log, "g/_log_line.html") }}` for `{% log_lines c.log "g/_log_line.html" %}`
  (templatetags/log_lines.py: each line rendered once and kept on the line).

The templates they name are the Jinja2 environment's. A Jinja2 partial's render is a function
of its values (the environment holds no clock, request or CSRF token), so every render is kept
but with auto-reload (DEBUG), when a template may change under a running process. The keys'
context flags are those of the push's Django renders (`render_unlocalized`: autoescape on,
localization off), which print what these print.
"""

from __future__ import annotations

from typing import Any

import jinja2
from django.utils.safestring import SafeString

from games.platform.rendering import render_jinja
from games.platform.templatetags.log_lines import log_lines
from games.platform.templatetags.shared_includes import each_kept, include_kept

# autoescape, use_l10n, use_tz: a Django Context's flags as render_unlocalized sets them.
_FLAGS = (True, False, None)


def helpers(env: jinja2.Environment) -> None:
    """Adds the platform's tags to `env` as globals."""

    def include_each(name: str, items: Any, as_name: str, whole: bool = True) -> SafeString:
        """`name` rendered with `{as_name: item}` alone for each of `items`, joined; the
        joined whole kept too unless `whole` is false."""
        if not items:
            return SafeString("")
        template = env.get_template(name)
        return SafeString(each_kept((name, *_FLAGS), items, as_name, keep=not env.auto_reload,
                                    render=lambda values: render_jinja(template, values),
                                    whole=whole))

    def include_only(name: str, **values: Any) -> SafeString:
        """`name` rendered with `values` alone (Jinja2's own include passes the whole
        context, whose render is kept by nothing)."""
        template = env.get_template(name)
        if env.auto_reload:
            return SafeString(render_jinja(template, values))
        return SafeString(include_kept((name, *_FLAGS), values,
                                       lambda: render_jinja(template, values)))

    env.globals.update({"include_each": include_each, "include_only": include_only,
                        "log_lines": log_lines})
