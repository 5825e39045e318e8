"""The tests never touch the developer's ./db.sqlite3 on the embedded default.

pytest-django runs them on a file of their own (the settings' TEST NAME, .test-db-<pid>.sqlite3)
and every live process a fixture starts is pointed at that file. A process a test starts
without naming a database (a web process importing the ASGI app runs the periodic sweeps)
would otherwise have opened ./db.sqlite3: tests/conftest.py points the embedded default at a
scratch file for the whole run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
DEVELOPER_DATABASE = ROOT / "db.sqlite3"

pytestmark = pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")),
                                reason="about the embedded SQLite default")


def test_the_test_database_is_a_file_of_its_own() -> None:
    # Outside the test database (before it exists, after it is dropped) as well.
    assert Path(settings.DATABASES["default"]["NAME"]).resolve() != DEVELOPER_DATABASE
    test_name = settings.DATABASES["default"]["TEST"]["NAME"]
    assert Path(test_name).resolve() != DEVELOPER_DATABASE
    assert Path(test_name).name.startswith(".test-db-")


@pytest.mark.django_db
def test_a_test_reads_and_writes_the_test_database_file(django_db_setup: None) -> None:
    from django.db import connection

    assert Path(connection.settings_dict["NAME"]).resolve() != DEVELOPER_DATABASE


def test_a_process_a_test_starts_without_naming_a_database_stays_off_the_developers_file(
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DJANGO_SETTINGS_MODULE"] = "chudopoly_site.settings"
    script = ("import django; django.setup(); from django.conf import settings; "
              "print(settings.DATABASES['default']['NAME'])")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).resolve() != DEVELOPER_DATABASE
