"""GET /api/openapi.json: the API's description, covering every /api/ route as it is."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.api.openapi import PATHS, document

pytestmark = pytest.mark.django_db


def _api_routes() -> dict[str, Any]:
    """Every /api/ route, its path written as OpenAPI writes it but with `{}` for each
    parameter, and its view (the JSON 404 for any other path left out)."""
    out = {}
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and str(entry.pattern) == "api/":
            for route in entry.url_patterns:
                assert isinstance(route, URLPattern)
                if route.name == "not_found":
                    continue
                out["/api/" + re.sub(r"<[^>]+>", "{}", str(route.pattern))] = route.callback
    return out


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def test_every_api_route_is_described_with_the_methods_its_view_takes() -> None:
    described = {_shape(path): operations for path, operations in PATHS.items()}
    routes = _api_routes()
    assert set(routes) == set(described)
    for path, view in routes.items():
        assert set(described[path]) == {m.lower() for m in view.api_methods}, path


def test_the_description_is_served_to_anyone_as_json(db: None) -> None:
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    served = response.json()
    assert served["openapi"].startswith("3.1") and served == json.loads(json.dumps(document()))
    assert Client().post("/api/openapi.json").status_code == 405


def test_every_reference_in_the_description_resolves() -> None:
    doc = document()
    text = json.dumps(doc)
    for name in re.findall(r'"#/components/schemas/([A-Za-z]+)"', text):
        assert name in doc["components"]["schemas"], name


def test_every_path_parameter_is_declared() -> None:
    for path, operations in PATHS.items():
        wanted = set(re.findall(r"\{([^}]+)\}", path))
        for method, operation in operations.items():
            declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert declared == wanted, (path, method)


def test_every_endpoint_that_needs_a_token_says_which_scope() -> None:
    routes = {path: view for path, view in _api_routes().items()}
    for path, operations in PATHS.items():
        view = routes[_shape(path)]
        for operation in operations.values():
            scopes = [s for need in operation.get("security", []) for s in need["bearer"]]
            assert scopes == list(getattr(view, "api_scopes", ())), path
