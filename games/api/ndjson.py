"""Newline-delimited JSON: one event a line, and an empty line to keep a quiet stream open."""

from __future__ import annotations

from typing import Any

from games.platform.jsontext import compact_json

CONTENT_TYPE = "application/x-ndjson"
KEEP_ALIVE = b"\n"


def line(event: dict[str, Any]) -> bytes:
    return (compact_json(event) + "\n").encode()
