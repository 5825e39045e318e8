"""Fixtures for the table's look-and-feel tests: phone and desktop browser contexts that fail on
console errors, axe-core (installed from tests/ui/package-lock.json with `npm ci`), and quiet
background work in the test process (the live Daphne site runs the bots)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.platform.scheduler import in_process_scheduler

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = HERE.parent.parent / "artifacts" / "ui"

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
         "has_touch": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


@pytest.fixture(autouse=True)
def _bots_move_on_the_live_site(settings: Any) -> Iterator[None]:
    """Games are set up in the test process; their bots must move in the live Daphne process
    only, so the test process never runs scheduled work."""
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    runner = in_process_scheduler()
    runner.halt()
    yield
    runner.clear()


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """Path of axe.min.js, installed on first use with `npm ci --prefix tests/ui`."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("the accessibility check needs npm to install axe-core "
                        "(tests/ui/package.json)")
        done = subprocess.run([npm, "ci", "--prefix", str(HERE), "--no-audit", "--no-fund",
                               "--ignore-scripts"], capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not AXE.exists():
            pytest.skip(f"npm ci --prefix tests/ui failed: {done.stderr.strip()[-400:]}")
    return AXE


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def _context(browser: Any, options: dict[str, Any]) -> tuple[Any, Any]:
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.console_errors = errors
    return context, page


@pytest.fixture(params=["phone", "desktop"])
def device(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    """(name, page) at 390×844 with touch, then at 1440×900; fails on console errors."""
    name = request.param
    context, page = _context(browser, PHONE if name == "phone" else DESKTOP)
    yield name, page
    context.close()
    assert not page.console_errors, f"console errors in the browser: {page.console_errors}"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context, page = _context(browser, PHONE)
    yield page
    context.close()
    assert not page.console_errors, f"console errors in the browser: {page.console_errors}"


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    context, page = _context(browser, DESKTOP)
    yield page
    context.close()
    assert not page.console_errors, f"console errors in the browser: {page.console_errors}"
