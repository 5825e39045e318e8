"""Configuration comes from the environment and bad production values fail loudly at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 20 + "production-secret-key-that-is-long-enough-0123456789",
    "ALLOWED_HOSTS": "chudopoly.example",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def _run_django(env_overrides: dict[str, str | None], *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    for key, value in env_overrides.items():
        if value is not None:
            env[key] = value
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_production_settings_pass_the_deploy_check_without_warnings() -> None:
    result = _run_django(PRODUCTION, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("overrides", "variable"),
    [
        ({"SECRET_KEY": None}, "SECRET_KEY"),
        ({"SECRET_KEY": "short"}, "SECRET_KEY"),
        ({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS"),
        ({"DATABASE_URL": "mysql://db/x"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"CONN_MAX_AGE": "forever"}, "CONN_MAX_AGE"),
        ({"CONN_MAX_AGE": "600"}, "CONN_MAX_AGE"),
        ({"DB_POOL_MAX_SIZE": "0"}, "DB_POOL_MAX_SIZE"),
        ({"DB_POOL_MIN_SIZE": "5", "DB_POOL_MAX_SIZE": "3"}, "DB_POOL_MAX_SIZE"),
        ({"TASK_BACKEND": "threads"}, "TASK_BACKEND"),
        ({"CHANNEL_LAYER": "rabbitmq"}, "CHANNEL_LAYER"),
    ],
)
def test_a_bad_or_missing_production_value_fails_at_start_up_naming_it(
    overrides: dict[str, str | None], variable: str
) -> None:
    env = {**PRODUCTION, **overrides}
    result = _run_django(env, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert variable in result.stderr


def test_with_no_environment_the_site_uses_the_embedded_defaults() -> None:
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.DATABASES['default']['ENGINE'], "
        "s.CHANNEL_LAYERS['default']['BACKEND'], s.TASK_BACKEND]))"
    )
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    env["DJANGO_SETTINGS_MODULE"] = "chudopoly_site.settings"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        '["django.db.backends.sqlite3", '
        '"chudopoly_site.channel_layer.LoopSafeInMemoryChannelLayer", "inprocess"]'
    )


def _web_process_prints(script: str, name: str, setting: str | None) -> str:
    """The last line `script` prints after loading the ASGI application in a fresh process,
    with the environment variable `name` set to `setting` (or unset)."""
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    env["DJANGO_SETTINGS_MODULE"] = "chudopoly_site.settings"
    env.pop(name, None)
    if setting is not None:
        env[name] = setting
    result = subprocess.run([sys.executable, "-c", f"import chudopoly_site.asgi; {script}"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(("setting", "full_every"), [(None, 100), ("25", 25)])
def test_the_web_process_keeps_what_it_loaded_out_of_full_collections_and_spaces_them_out(
        setting: str | None, full_every: int) -> None:
    # A full collection pauses every socket of the process (docs/performance.md).
    script = ("import gc, json; "
              "print(json.dumps([gc.get_threshold()[2], gc.get_freeze_count() > 10000]))")
    assert _web_process_prints(script, "GC_FULL_EVERY", setting) == f"[{full_every}, true]"


@pytest.mark.parametrize(("setting", "young_every"), [(None, 5000), ("700", 700)])
def test_the_web_process_collects_its_young_objects_less_often_than_python_by_default(
        setting: str | None, young_every: int) -> None:
    # Each young collection walks what the moves keep for a moment (docs/performance.md).
    script = "import gc; print(gc.get_threshold()[0])"
    assert _web_process_prints(script, "GC_YOUNG_EVERY", setting) == str(young_every)


@pytest.mark.parametrize(("setting", "seconds"), [(None, 0.001), ("250", 0.00025)])
def test_the_web_process_hands_the_gil_between_its_threads_every_millisecond(
        setting: str | None, seconds: float) -> None:
    # A move's handler waits for the GIL after each database round trip (docs/performance.md).
    printed = _web_process_prints("import sys; print(sys.getswitchinterval())",
                                  "GIL_SWITCH_MICROSECONDS", setting)
    assert float(printed) == pytest.approx(seconds)
