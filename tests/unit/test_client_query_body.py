"""The client's query body carries who asks and when, as ``POST .../query`` takes them."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.client.wire import query_body


def test_speaker_and_now_travel_in_the_body() -> None:
    body = query_body("What was my bank before Corbel?", speaker="Wren", now=datetime(2026, 6, 15, tzinfo=UTC))
    assert body["speaker"] == "Wren" and body["now"] == "2026-06-15T00:00:00+00:00"
    assert "speaker" not in query_body("anything") and "now" not in query_body("anything")
