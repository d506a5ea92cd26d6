"""Export and import under hostile conditions (issue 14): an export is spooled so a slow reader
holds no transaction; deeply nested or undecodable lines and unsound trees are a 4xx naming the
line, with nothing written."""

from __future__ import annotations

import base64
import itertools
import json
import os
import string
import urllib.parse
import uuid
from typing import Any

import numpy as np
import pytest
from support import admin_settings, app_client, tenant_key
from test_export_import import all_rows, export_text, import_text, source

from memforest.app.transfer import export_forest
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.lifecycle.transfer_format import FORMAT, VERSION
from memforest.settings import Settings
from memforest.store.sql import scalar

__all__ = ["source"]  # the fixture, shared with test_export_import

_IDLE_IN_TRANSACTION = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"
)


@pytest.mark.parametrize("memory", [0, 10_000_000])
async def test_a_slow_export_reader_holds_no_transaction(
    db: Database, settings: Settings, source: uuid.UUID, memory: int
) -> None:
    s = admin_settings(settings, limits={"export_spool_memory_bytes": memory})
    _, lines = await export_forest(db, s, source, "alpha", with_derived=True)
    first = await anext(lines)  # the reader stalls after one line
    assert json.loads(first)["format"]
    async with db.system() as conn:
        assert await scalar(conn, _IDLE_IN_TRANSACTION) == 0
    rest = [line async for line in lines]
    direct = (await export_text(db, s, source, "alpha", True)).splitlines(keepends=True)
    assert rest == direct[1:] and len(rest) > 10  # the same records, after the same header


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


async def test_deeply_nested_or_undecodable_import_lines_are_422(settings: Settings, db: Database) -> None:
    header = {"format": FORMAT, "version": VERSION, "forest": "f", "with_derived": False, "counts": {"session": 1},
              "embedding": {"backend": "hashed", "model": "hashed", "dim": 64}}  # fmt: skip
    nested = '{"type": "session", "metadata": ' + _deep(500) + "}"
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c)
        before = await all_rows(db)
        bodies = {
            "deep record": (json.dumps(header) + "\n" + _deep(200_000) + "\n").encode(),
            "deep header": (_deep(200_000) + "\n").encode(),
            "deep but parseable": (json.dumps(header) + "\n" + nested + "\n").encode(),
            "not UTF-8": json.dumps(header).encode() + b"\n\xff\xfe\n",
        }  # fmt: skip
        for name, body in bodies.items():
            r = await c.post("/v1/forests/f/import", content=body, headers=h)
            assert r.status_code == 422, (name, r.status_code, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["location"].endswith("line 1" if name == "deep header" else "line 2"), (name, r.text)
        assert await all_rows(db) == before


def _unsound(lines: list[str]) -> dict[str, tuple[str, str]]:
    """name -> (file text, expected message fragment), each breaking one tree invariant."""
    docs = [json.loads(line) for line in lines]
    nodes = {d["id"]: d for d in docs if d.get("type") == "node"}
    trees = {d["id"]: d for d in docs if d.get("type") == "tree"}
    kids: dict[int, list[int]] = {}
    for d in nodes.values():
        if d["parent"] is not None:
            kids.setdefault(d["parent"], []).append(d["id"])
    inner = max((n for n in nodes.values() if n["level"] == 1), key=lambda n: len(kids.get(n["id"], [])))
    tall = trees[inner["tree"]]
    wide = max((n for n in nodes.values() if n["level"] >= 1), key=lambda n: len(kids.get(n["id"], [])))
    leaf_a, leaf_b = sorted(kids[inner["id"]])[:2]

    def edit(changes: dict[int, dict[str, Any]], match: str) -> tuple[str, str]:
        out = [json.dumps({**d, **changes[i]}) + "\n" if i in changes else lines[i] for i, d in enumerate(docs)]
        return "".join(out), match

    at = {id(d): i for i, d in enumerate(docs)}
    placement = next(i for i, d in enumerate(docs) if d.get("type") == "placement" and d["node"] == leaf_a)
    return {
        "level": edit({at[id(inner)]: {"level": 2}}, "level"),
        "height": edit({at[id(tall)]: {"height": tall["height"] + 1}}, "height"),
        "child count": edit({at[id(wide)]: {"n_children": wide["n_children"] + 1}}, "n_children"),
        "fan-out": edit({at[id(trees[wide["tree"]])]: {"fanout": 2}}, "fan-out"),
        "interval": edit({at[id(inner)]: {"t_end": nodes[leaf_a]["t_end"]}}, "t_end"),
        "start after end": edit(
            {at[id(nodes[leaf_b])]: {"t_start": "2999-01-01T00:00:00+00:00"}}, "t_start is after t_end"
        ),
        "placement": edit({placement: {"node": leaf_b}}, "placement"),
    }


async def test_unsound_imported_trees_are_refused_and_nothing_is_written(
    db: Database, settings: Settings, source: uuid.UUID
) -> None:
    lines = (await export_text(db, settings, source, "alpha", True)).splitlines(keepends=True)
    await import_text(db, settings, source, "".join(lines), "sound")  # the file itself is fine
    before = await all_rows(db)
    for name, (data, fragment) in _unsound(lines).items():
        with pytest.raises(InputError) as info:
            await import_text(db, settings, source, data, "target")
        assert "trees are not sound" in str(info.value) and fragment in str(info.value), (name, str(info.value))
    assert await all_rows(db) == before


# ---------------------------------------------------------------- crafted values (issue 54, L1)


def _nan_vector(dim: int, value: float) -> str:
    return base64.b64encode(np.full(dim, value, dtype="<f4").tobytes()).decode("ascii")


def _words(n: int) -> list[str]:
    """``n`` distinct five-letter words."""
    return ["".join(w) for w in itertools.islice(itertools.product(string.ascii_lowercase, repeat=5), n)]


def _crafted(lines: list[str], dim: int) -> dict[str, tuple[str, int]]:
    """name -> (file text, the 1-based line at fault): one value in one record made hostile, each a
    value the database (or its driver) would refuse."""
    docs = [json.loads(line) for line in lines]

    def first(kind: str) -> int:
        return next(i for i, d in enumerate(docs) if d.get("type") == kind)

    def edit(kind: str, change: dict[str, Any]) -> tuple[str, int]:
        i = first(kind)
        return "".join([*lines[:i], json.dumps({**docs[i], **change}) + "\n", *lines[i + 1 :]]), i + 1

    return {
        "NaN centroid": edit("scene_cluster", {"centroid": _nan_vector(dim, float("nan"))}),
        "infinite centroid": edit("scene_cluster", {"centroid": _nan_vector(dim, float("inf"))}),
        "int4 past its range": edit("fact", {"source_count": 2**31}),
        "int4 below its range": edit("turn", {"seq": -(2**31) - 1}),
        "n_turns past int8": edit("session", {"n_turns": 2**63}),
        "counts past int4": edit("entity", {"fact_count": 2**40}),
        "topic count past its range": edit("scene_cluster", {"topic_counts": {"x": 2**70}}),
        "time out of range in UTC": edit("session", {"time": "0001-01-01T00:00:00+14:00"}),
        "time past year 9999 in UTC": edit("turn", {"time": "9999-12-31T23:00:00-05:00"}),
        "NaN in metadata": edit("session", {"metadata": {"x": float("nan")}}),  # json writes NaN
        "Infinity in metadata": edit("session", {"metadata": {"x": [float("-inf")]}}),
        "lone surrogate": edit("turn", {"text": "a\ud800b"}),
        "text_hash past an index entry": edit("fact", {"text_hash": os.urandom(1500).hex()}),
        "subject and attribute past their index entry": edit(
            "fact", {"subject": os.urandom(700).hex(), "attribute": os.urandom(700).hex()}
        ),
        "fact text past a tsvector": edit("fact", {"text": " ".join(_words(250_000))}),
    }


async def test_crafted_values_are_422_naming_the_line_and_nothing_is_written(
    db: Database, settings: Settings, source: uuid.UUID
) -> None:
    lines = (await export_text(db, settings, source, "alpha", False)).splitlines(keepends=True)
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c)
        before = await all_rows(db)
        for name, (data, line) in _crafted(lines, settings.embedding.dim).items():
            r = await c.post("/v1/forests/f/import", content=data.encode(), headers=h)
            assert r.status_code == 422, (name, r.status_code, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["location"].endswith(f"line {line}"), (name, r.text)
        assert await all_rows(db) == before
        r = await c.post("/v1/forests/f/import", content="".join(lines).encode(), headers=h)
        assert r.status_code == 202, r.text  # the file itself is fine


@pytest.mark.parametrize(
    ("name", "fallback"),
    [("日本", "forest"), ("notes-日本.v2", "notes-__.v2"), ('a b;c"d', "a_b_c_d"), ("plain", "plain")],
)
async def test_export_of_any_forest_name_names_its_file_by_rfc_6266(
    settings: Settings, db: Database, name: str, fallback: str
) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c)
        assert (await c.post("/v1/forests", json={"name": name}, headers=h)).status_code == 201
        r = await c.get(f"/v1/forests/{urllib.parse.quote(name, safe='')}/export", headers=h)
        assert r.status_code == 200, r.text
        assert json.loads(r.text.splitlines()[0])["forest"] == name
        disposition = r.headers["content-disposition"]
        assert disposition.isascii(), disposition
        assert f'filename="{fallback}.jsonl"' in disposition, disposition
        encoded = disposition.split("filename*=UTF-8''", 1)[1]
        assert urllib.parse.unquote(encoded, errors="strict") == f"{name}.jsonl", disposition
