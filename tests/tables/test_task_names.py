"""The platform's tasks are named "tables.*"; the names older releases queued still run."""

from __future__ import annotations

import pytest
from django.test import Client

from chudopoly_site.celery import app

OLD_TO_NEW = {
    "chudopoly.bot_move": "tables.bot_move",
    "chudopoly.bots_watchdog": "tables.bots_watchdog",
    "chudopoly.clock_expire": "tables.clock_expire",
    "chudopoly.clocks_sweep": "tables.clocks_sweep",
    "chudopoly.seat_grace_check": "tables.seat_grace_check",
}


@pytest.mark.parametrize("old, new", OLD_TO_NEW.items())
def test_a_task_queued_under_its_old_name_runs_the_same_function(old: str, new: str) -> None:
    app.loader.import_default_modules()
    assert app.tasks[old].run is app.tasks[new].run


@pytest.mark.django_db
def test_an_old_clock_expiry_for_a_game_that_is_gone_does_nothing() -> None:
    app.loader.import_default_modules()
    assert app.tasks["chudopoly.clock_expire"].run(game_id=987654, due=None) == 0


@pytest.mark.django_db
def test_each_game_has_its_rules_page_and_rules_lists_them_all() -> None:
    client = Client()
    index = client.get("/rules")
    chudopoly = client.get("/rules/chudopoly")
    assert index.status_code == chudopoly.status_code == 200
    assert chudopoly.content.count(b"<h2") > 3
    assert b"Rules \xc2\xb7 Chudopoly" in chudopoly.content
    for kind in ("chudopoly", "boardroom", "commonwealth"):
        assert f'href="/rules/{kind}"'.encode() in index.content
    assert client.get("/rules/no-such-game").status_code == 404


def test_a_fresh_celery_process_schedules_every_periodic_sweep_for_beat() -> None:
    """Beat builds its schedule when the Celery app is finalized: if loading the apps
    finalized it before they filled PERIODIC_TASKS, beat would run with no sweeps at all."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import json\n"
        "from chudopoly_site.celery import app\n"
        "app.loader.import_default_modules()\n"
        "app.finalize()\n"
        "print(json.dumps(sorted(app.conf.beat_schedule)))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120, check=True)
    scheduled = json.loads(out.stdout.strip().splitlines()[-1])
    assert {"tables.bots_watchdog", "tables.clocks_due", "tables.clocks_sweep"} <= set(scheduled)
