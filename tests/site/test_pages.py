"""The home page, the health check and the friendly error pages."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import Client, RequestFactory

from chudopoly_site import health
from chudopoly_site.errors import server_error


@pytest.mark.django_db
def test_the_home_page_says_what_the_site_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Monopoly Deal" in text
    assert "three complete sets" in text
    assert "/static/django_htmx/htmx-2.min.js" in text
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in text
    assert "X-CSRFToken" in text


@pytest.mark.django_db
def test_healthz_reports_every_part_ok(client: Client) -> None:
    if django_settings.TASK_BACKEND == "celery":
        # The worker and beat are alive: their heartbeats are fresh.
        from chudopoly_site import heartbeats

        for role in heartbeats.ROLES:
            heartbeats.beat_once(role)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker", "worker", "beat"}


@pytest.mark.django_db
def test_healthz_names_the_part_that_failed(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> str:
        raise ConnectionError("redis is down")

    for name in health.CHECKS:  # every other part healthy, whatever this run has
        monkeypatch.setitem(health.CHECKS, name, lambda: "ok")
    monkeypatch.setitem(health.CHECKS, "channel_layer", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["channel_layer"]
    assert "redis is down" in body["checks"]["channel_layer"]
    assert body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_an_unknown_page_gets_a_friendly_404(client: Client, settings: object) -> None:
    settings.DEBUG = False
    response = client.get("/no-such-table/")
    assert response.status_code == 404
    assert "not on the table" in response.content.decode()


def test_a_server_error_gets_a_friendly_500_that_needs_no_database() -> None:
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
