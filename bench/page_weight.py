"""What a player downloads to open a table mid-game: the HTML of the table page plus every
stylesheet and script it links (htmx, its ws extension, django-htmx, site CSS, table.js), raw
and gzip-compressed, and the first websocket frame.

    uv run python bench/page_weight.py            # a throwaway SQLite database
    uv run python bench/page_weight.py --json     # one JSON object instead of the table

The position: three seats (you and two easy bots), the bots and you play 60 decisions of a
seeded game, so boards, banks and the log are filled in; the page is fetched as your seat. Static
files are compressed at gzip level 9 (WhiteNoise precompresses them that way); the HTML at
level 6, a common server default. No CDN is involved: every file is served by the site.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 100 * 1024  # bytes, gzip, HTML + CSS + JS


def gz(data: bytes, level: int) -> int:
    return len(gzip.compress(data, compresslevel=level, mtime=0))


LAST: dict[str, Any] = {}


def table_page_as_player(decisions: int = 60, seed: int = 7) -> tuple[str, str]:
    """(page HTML, first websocket frame) of a mid-game table, fetched as the human seat.
    Needs Django set up on a migrated database; background work must not run on its own."""
    import random

    from django.test import Client

    from games.chudopoly.bots import choose_action
    from games.platform import presenters, services
    from games.platform.identity import GUEST_SESSION_KEY, Viewer
    from games.platform.interface import get_game
    from games.platform.models import Game, Table

    viewer = Viewer(user_id=None, guest_key=f"weight-{random.Random(seed).random()}")
    table = services.table_create(viewer=viewer, name="Ava", ruleset_spec={"preset": "chudopoly"},
                                  max_seats=3)
    for _ in range(2):
        services.seat_add_bot(table_id=table.pk, viewer=viewer, level="easy")
    game = services.game_start(table_id=table.pk, viewer=viewer)
    engine = get_game(game.game_kind)
    # The same deal every run, so the figure is comparable from one change to the next.
    game.seed = seed
    game.state = engine.create(ruleset=table.ruleset, seats=3, seed=seed)
    game.save()
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        seat = engine.to_decide(game.state)[0]
        action = choose_action(engine.view(game.state, seat), level="easy")
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=game.version)
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    html = client.get(f"/t/{table.code}/").content.decode()
    screen = presenters.load_screen(Table.objects.get(pk=table.pk), viewer)
    frame = "\n".join(presenters.render_all(screen, oob=True).values())
    LAST.update(table=table, viewer=viewer)
    return html, frame


def push_render_ms(repeat: int = 30) -> float:
    """Mean server time of one push for the last table: read the screen, render every partial
    (what a consumer does for each move), with DEBUG off as in production."""
    import time

    from django.conf import settings

    from games.platform import presenters
    from games.platform.models import Table

    table = Table.objects.get(pk=LAST["table"].pk)
    debug, settings.DEBUG = settings.DEBUG, False
    try:
        presenters.render_all(presenters.load_screen(table, LAST["viewer"]), oob=True)
        started = time.perf_counter()
        for _ in range(repeat):
            presenters.render_all(presenters.load_screen(table, LAST["viewer"]), oob=True)
        return (time.perf_counter() - started) / repeat * 1000
    finally:
        settings.DEBUG = debug


def linked_assets(html: str) -> list[str]:
    """Static paths of the stylesheets and scripts the page links, in page order."""
    found = re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"|<script[^>]+src="([^"]+)"',
                       html)
    return [css or js for css, js in found]


def weigh(html: str, frame: str = "") -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.staticfiles import finders

    rows = [{"what": "table page HTML", "raw": len(html.encode()),
             "gzip": gz(html.encode(), 6)}]
    for url in linked_assets(html):
        if url.startswith(("http:", "https:", "//")):
            raise AssertionError(f"the table page loads {url} from another site")
        path = finders.find(url.removeprefix(settings.STATIC_URL).split("?")[0])
        if path is None:
            raise AssertionError(f"no static file for {url}")
        data = Path(path).read_bytes()
        rows.append({"what": url, "raw": len(data), "gzip": gz(data, 9)})
    total = sum(r["gzip"] for r in rows)
    return {"rows": rows, "total_raw": sum(r["raw"] for r in rows), "total_gzip": total,
            "budget": BUDGET, "first_frame": {"raw": len(frame.encode()),
                                              "gzip": gz(frame.encode(), 6)}}


def _setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chudopoly_site.settings")
    os.environ["DEBUG"] = "1"  # static files from the finders, no manifest needed
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp(prefix="weight-")) / "db.sqlite3")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--decisions", type=int, default=60)
    args = parser.parse_args()
    _setup()
    html, frame = table_page_as_player(args.decisions)
    result = weigh(html, frame)
    result["push_render_ms"] = round(push_render_ms(), 1)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"{'file':48} {'raw':>9} {'gzip':>9}")
    for row in result["rows"]:
        print(f"{row['what']:48} {row['raw']:>9,} {row['gzip']:>9,}")
    print(f"{'total (HTML + CSS + JS)':48} {result['total_raw']:>9,} {result['total_gzip']:>9,}"
          f"   budget {BUDGET:,} gzip: {'OK' if result['total_gzip'] < BUDGET else 'OVER'}")
    f = result["first_frame"]
    print(f"{'first websocket frame (all partials)':48} {f['raw']:>9,} {f['gzip']:>9,}"
          "   (gzip column: if the socket compressed)")
    print(f"server time of one push (read + render all partials): {result['push_render_ms']} ms")


if __name__ == "__main__":
    main()
