"""The README's run command (`manage.py serve`) brings up the whole site by itself."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


PRODUCTION_LIKE = {
    "DEBUG": "0",
    "SECRET_KEY": "serve-test-" + "k" * 60,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
}


@pytest.mark.parametrize(
    ("extra_env", "extra_args"),
    [({}, []), (PRODUCTION_LIKE, ["--no-worker"])],
    ids=["embedded-default", "compose-web-command"],
)
def test_serve_migrates_a_fresh_database_and_answers_healthz(
    tmp_path: Path, extra_env: dict[str, str], extra_args: list[str]
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE",
                        "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env["SQLITE_PATH"] = str(tmp_path / "fresh.sqlite3")
    env["STATIC_ROOT"] = str(tmp_path / "static")
    env.update(extra_env)
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), *extra_args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    body = json.loads(r.read())
                    break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode()
                assert time.monotonic() < deadline, "serve did not answer within 60 s"
                time.sleep(0.3)
        assert body["status"] == "ok"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            page = r.read().decode()
        assert "Chudopoly" in page
        script = page.split('<script src="', 1)[1].split('"', 1)[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{script}", timeout=5) as r:
            assert r.status == 200
    finally:
        server.terminate()
        server.wait(timeout=10)
