"""Fact rows as the temporal read path receives them (``subject_facts``' columns), for plan tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any


def row_at(
    fid: int,
    when: datetime,
    text: str,
    *,
    speaker: str | None = None,
    subject: str | None = None,
    attribute: str | None = None,
    value: str | None = None,
    entities: Sequence[str] = (),
) -> dict[str, Any]:
    """The fact ``fid`` stated at ``when``, with every column the temporal read path reads."""
    return {
        "fact_id": fid,
        "valid_from": when,
        "text": text,
        "speaker": speaker,
        "subject": subject,
        "attribute": attribute,
        "value": value,
        "entities": list(entities),
    }


def fact_row(
    fid: int,
    month: int,
    text: str,
    speaker: str,
    *,
    subject: str | None = None,
    attribute: str | None = None,
    value: str | None = None,
    entities: Sequence[str] = (),
) -> dict[str, Any]:
    """The fact ``fid`` said by ``speaker`` on the first of ``month`` 2024, naming the speaker and ``entities``."""
    when = datetime(2024, month, 1, tzinfo=UTC)
    return row_at(
        fid,
        when,
        text,
        speaker=speaker,
        subject=subject,
        attribute=attribute,
        value=value,
        entities=[speaker, *entities],
    )


def named_row(
    fid: int,
    when: datetime,
    text: str,
    person: str,
    attribute: str | None,
    value: str | None,
    *,
    speaker: str | None = None,
    subject: str | None = None,
) -> dict[str, Any]:
    """A statement at ``when`` naming ``person`` and ``value``, filed under ``attribute`` when given."""
    named = [person, *([value] if value else [])]
    return row_at(fid, when, text, speaker=speaker, subject=subject, attribute=attribute, value=value, entities=named)


def own_state_row(
    fid: int, month: int, text: str, speaker: str, attribute: str | None = None, value: str | None = None
) -> dict[str, Any]:
    """:func:`fact_row` of a statement about the speaker: filed under (speaker, ``attribute``) with
    ``value`` when ``attribute`` is given, unslotted otherwise."""
    subject = speaker.casefold() if attribute else None
    entities = [value] if value else []
    return fact_row(fid, month, text, speaker, subject=subject, attribute=attribute, value=value, entities=entities)
