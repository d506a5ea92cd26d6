"""Cells and the session content hash."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone

import pytest

from memforest.domain import SessionInput, TurnInput
from memforest.errors import InputError
from memforest.formats.cells import chunk_turns, session_content_hash


def test_chunk_turns_even_and_ragged() -> None:
    assert chunk_turns(4, 2) == [range(0, 2), range(2, 4)]
    assert chunk_turns(5, 2) == [range(0, 2), range(2, 4), range(4, 5)]
    assert chunk_turns(3, 1) == [range(0, 1), range(1, 2), range(2, 3)]
    assert chunk_turns(3, 10) == [range(0, 3)]
    assert chunk_turns(0, 2) == []


def test_chunk_turns_covers_every_position_once() -> None:
    for n in range(0, 20):
        for b in range(1, 6):
            flat = [i for r in chunk_turns(n, b) for i in r]
            assert flat == list(range(n))
            assert all(1 <= len(r) <= b for r in chunk_turns(n, b))


@pytest.mark.parametrize("b", [0, -1])
def test_chunk_turns_rejects_bad_b(b: int) -> None:
    with pytest.raises(InputError):
        chunk_turns(4, b)


def test_chunk_turns_rejects_negative_n() -> None:
    with pytest.raises(InputError):
        chunk_turns(-1, 2)


def _session() -> SessionInput:
    t0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    return SessionInput(
        external_id="s1",
        time=t0,
        turns=(
            TurnInput(speaker="Alice", text="Hi Bob", role="user", external_id="D1:1"),
            TurnInput(speaker="Bob", text="Hi!", external_id="D1:2", time=t0 + timedelta(minutes=1)),
        ),
        metadata={"b": 1, "a": [1, 2]},
    )


def test_content_hash_stable() -> None:
    h = session_content_hash(_session())
    assert len(h) == 64
    assert h == session_content_hash(_session())
    # metadata key order and the offset used to express the same instant do not matter
    s = _session()
    same = dataclasses.replace(
        s,
        metadata={"a": [1, 2], "b": 1},
        time=s.time.astimezone(timezone(timedelta(hours=2))),
    )
    assert session_content_hash(same) == h


def test_content_hash_sensitive_to_every_field() -> None:
    base = _session()
    h = session_content_hash(base)
    t0, t1 = base.turns
    variants = [
        dataclasses.replace(base, external_id="s2"),
        dataclasses.replace(base, time=base.time + timedelta(seconds=1)),
        dataclasses.replace(base, metadata={"b": 2, "a": [1, 2]}),
        dataclasses.replace(base, metadata={}),
        dataclasses.replace(base, turns=(t0,)),
        dataclasses.replace(base, turns=(t1, t0)),
        dataclasses.replace(base, turns=(dataclasses.replace(t0, text="Hi Bob!"), t1)),
        dataclasses.replace(base, turns=(dataclasses.replace(t0, speaker="Alicia"), t1)),
        dataclasses.replace(base, turns=(dataclasses.replace(t0, role=None), t1)),
        dataclasses.replace(base, turns=(dataclasses.replace(t0, external_id="D1:9"), t1)),
        dataclasses.replace(base, turns=(t0, dataclasses.replace(t1, time=None))),
    ]
    hashes = {session_content_hash(v) for v in variants}
    assert h not in hashes
    assert len(hashes) == len(variants)
