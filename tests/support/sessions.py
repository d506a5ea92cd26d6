"""Builders of sessions and turns: domain ``SessionInput`` objects and HTTP JSON bodies."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memforest.domain import SessionInput, TurnInput


def noon_utc(year: int, month: int, day: int) -> datetime:
    """Noon UTC of that day: the time tests give a session when only its date matters."""
    return datetime(year, month, day, 12, 0, tzinfo=UTC)


def alternating_turns(
    ext: str,
    texts: Sequence[str],
    speakers: tuple[str, str] = ("Alice", "Bob"),
    *,
    role: str | None = "user",
    turn_ids: bool = True,
    start: datetime | None = None,
) -> tuple[TurnInput, ...]:
    """Turns spoken by ``speakers`` in turn; ids ``ext:i`` when ``turn_ids``; a minute apart from ``start``."""
    return tuple(
        TurnInput(
            speaker=speakers[i % 2],
            text=text,
            role=role,
            external_id=f"{ext}:{i}" if turn_ids else None,
            time=start + timedelta(minutes=i) if start is not None else None,
        )
        for i, text in enumerate(texts)
    )


def session_input(
    ext: str,
    when: datetime,
    texts: Sequence[str],
    speakers: tuple[str, str] = ("Alice", "Bob"),
    *,
    role: str | None = "user",
    turn_ids: bool = True,
    minutes: bool = False,
) -> SessionInput:
    """A session of alternating turns (see :func:`alternating_turns`); ``minutes`` times them a minute apart."""
    turns = alternating_turns(ext, texts, speakers, role=role, turn_ids=turn_ids, start=when if minutes else None)
    return SessionInput(external_id=ext, time=when, turns=turns)


def session_body(
    sid: str,
    time: str,
    texts: Sequence[str],
    speakers: tuple[str, str] = ("Alice", "Bob"),
    *,
    roles: tuple[str | None, str | None] = ("user", "user"),
) -> dict[str, Any]:
    """The JSON body of ``POST /v1/forests/{forest}/sessions``: alternating speakers and roles."""
    turns = []
    for i, text in enumerate(texts):
        turn: dict[str, Any] = {"speaker": speakers[i % 2]}
        if roles[i % 2] is not None:
            turn["role"] = roles[i % 2]
        turn["text"] = text
        turns.append(turn)
    return {"id": sid, "time": time, "turns": turns}


HOBBY_SPEAKERS = ("Ilse", "Teodor")
HOBBIES = ("bouldering", "cello", "birdwatching", "ceramics", "fencing")


def hobby_sessions(n: int, base: datetime, prefix: str = "s") -> list[SessionInput]:
    """``n`` sessions three days apart from ``base``, each four turns on one hobby with the same
    people and places (Orla, Kasimir, Lake Veltin, Brakel): they share entity trees and scenes, so a
    few sessions grow trees above level 1. No client turn ids."""
    out = []
    for i in range(n):
        hobby = HOBBIES[i % len(HOBBIES)]
        texts = [
            f"I went {hobby} with Orla near Lake Veltin on day {i}.",
            f"Orla told me she bought a new {hobby} kit in Brakel, note {i}.",
            f"My cousin Kasimir wants to try {hobby} next month, entry {i}.",
            f"Kasimir and Orla met at the Brakel market yesterday, item {i}.",
        ]
        turns = alternating_turns(f"{prefix}{i}", texts, HOBBY_SPEAKERS, role=None, turn_ids=False)
        out.append(SessionInput(external_id=f"{prefix}{i}", time=base + timedelta(days=3 * i), turns=turns))
    return out


def said_to_assistant(lines: Sequence[tuple[str, datetime, str]], speaker: str, reply: str) -> list[SessionInput]:
    """One session per ``(id, time, text)`` line: ``speaker`` (role user) says it, the assistant
    answers ``reply``; turn ids ``<id>:1`` and ``<id>:2``."""
    return [
        SessionInput(
            external_id=sid,
            time=when,
            turns=(
                TurnInput(speaker=speaker, text=text, role="user", external_id=f"{sid}:1"),
                TurnInput(speaker="assistant", text=reply, role="assistant", external_id=f"{sid}:2"),
            ),
        )
        for sid, when, text in lines
    ]
