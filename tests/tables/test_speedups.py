"""The compiled hot modules are used only when built from the sources as they are
(games/platform/speedups.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from games.platform import speedups


@pytest.fixture(autouse=True)
def _switch_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The run may have the compiled modules turned off (CHUDOPOLY_SPEEDUPS=0): not here."""
    monkeypatch.delenv(speedups.SWITCH, raising=False)


def a_build(into: Path, sources: dict[str, str] | None = None,
            suffix: str | None = None) -> Path:
    """A build's files as the build command leaves them (the extensions empty: nothing here
    imports them), its manifest saying `sources` (by default the sources as they are)."""
    for module in (speedups.RUNTIME, *speedups.MODULES):
        path = speedups.compiled_file(into, module)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    if sources is None:
        sources = {m: speedups.digest_of(speedups.source_of(m)) for m in speedups.MODULES}
    (into / speedups.MANIFEST).write_text(json.dumps({
        "python": "3.11.7", "extension_suffix": suffix or speedups.extension_suffix(),
        "sources": sources}))
    return into


def test_a_build_of_the_sources_as_they_are_may_be_used(tmp_path: Path) -> None:
    assert speedups.stale_reason(a_build(tmp_path)) is None


def test_a_build_of_a_source_edited_since_is_not_used_and_one_warning_says_which(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    edited = {m: speedups.digest_of(speedups.source_of(m)) for m in speedups.MODULES}
    edited["games.platform.swaps"] = "0" * 64
    finders = list(sys.meta_path)
    assert not speedups.install(a_build(tmp_path, edited))
    assert sys.meta_path == finders
    warnings = [r for r in caplog.records if r.name == "games.platform.speedups"]
    assert len(warnings) == 1 and "games/platform/swaps.py changed since" in warnings[0].message
    assert "build_speedups" in warnings[0].message


def test_a_build_for_another_python_or_of_other_modules_is_not_used(tmp_path: Path) -> None:
    other_python = a_build(tmp_path / "python", suffix=".cpython-312-x86_64-linux-gnu.so")
    assert "another Python" in (speedups.stale_reason(other_python) or "")
    fewer = {m: speedups.digest_of(speedups.source_of(m)) for m in speedups.MODULES[:-1]}
    assert "other modules" in (speedups.stale_reason(a_build(tmp_path / "fewer", fewer)) or "")


def test_a_build_missing_a_compiled_module_is_not_used(tmp_path: Path) -> None:
    build = a_build(tmp_path)
    speedups.compiled_file(build, speedups.RUNTIME).unlink()
    assert "is missing" in (speedups.stale_reason(build) or "")


def test_a_build_is_not_used_once_its_modules_run_from_their_sources(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Installed after the modules were imported (as here), it would mix the two."""
    from games.platform import swaps  # noqa: F401

    assert not speedups.install(a_build(tmp_path))
    assert "imported before" in caplog.text


def test_without_a_build_or_with_the_switch_off_the_sources_run_and_nothing_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert not speedups.install(tmp_path / "none")
    monkeypatch.setenv(speedups.SWITCH, "0")
    assert not speedups.install(a_build(tmp_path))
    assert not caplog.records
