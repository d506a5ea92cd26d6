"""The read path's named statements (``memforest/store/queries/*.sql``, ADR 0037) as they will run:
every variant the store's selectors pick, rendered and compared with ``tests/unit/golden/*.sql``,
so a review shows the SQL PostgreSQL receives. After a deliberate change, regenerate them with

    MEMFOREST_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/unit/test_sql_golden.py

and review the diff. The other tests keep the files and the code that uses them in step: every
name in a file is taken by a module and every name taken exists, and the text the statements
write out (planner switches, the forest index catalogue, the tie margin, the half-precision key)
is what the Python constants say.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memforest.db.engine import CUSTOM_PLANS_AGAIN, GENERIC_PLANS_NEXT, KEY_LOOKUP_PLANS
from memforest.store import corroborate, evidence, queries, recall, recall_channels, recall_filter, temporal
from memforest.store.browse import descent
from memforest.store.forest_indexes import GRAPH_COLUMN, INDEXED_SQL, half_precision, indexed_sql

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("MEMFOREST_UPDATE_GOLDEN") == "1"
AGGREGATES = ("recall_channels", "evidence", "descent", "recall", "temporal", "recall_filter", "corroborate")
DIM, FOREST, EF = 64, 42, 96
AS_OF = datetime(2024, 1, 1, tzinfo=UTC)
TSQUERY = "to_tsquery('english', :tsq)"
INIT_PLAN_TSQUERY = f"(SELECT {TSQUERY})"


def _channels() -> dict[str, str]:
    out = {}
    parts_of: dict[str, tuple[recall_channels.ChannelPart, ...]] = {
        "vector": ("vector",),
        "lexical": ("lexical",),
        "all": recall_channels.PARTS,
    }
    for (label, parts), exact, as_of, generic_next in itertools.product(
        parts_of.items(), (True, False), (None, AS_OF), (False, True)
    ):
        if generic_next and not (label == "vector" or (label == "all" and exact)):
            continue
        literal = FOREST if not exact and label != "lexical" else None  # (as recall_channels passes it)
        sql = recall_channels.channels_sql(
            exact, as_of, scan_text=exact, parts=parts, dim=DIM, forest_id=literal, generic_next=generic_next
        )
        name = f"{label} {'exact' if exact else 'indexed'}{' as_of' if as_of else ''}"
        out[name + (" then_generic" if generic_next else "")] = sql
    out["indexed_and_knobs"] = recall_channels._INDEXED_AND_KNOBS
    out["forest_for_recall"] = recall_channels._FOREST_FOR_RECALL
    out["plans_as_usual"] = recall_channels._PLANS_AS_USUAL
    return out


def _evidence() -> dict[str, str]:
    return {
        "candidates every tree": evidence._CANDIDATES,
        "candidates in scoring trees": evidence._CANDIDATES_IN_TREES,
        "provenance": evidence._PROVENANCE,
    }


def _descent() -> dict[str, str]:
    out = {f"children with_sim={q}": sql for q, sql in descent._CHILDREN.items()}
    for (live, plans), sql in descent._STATEMENTS.items():
        out[f"beam live_leaves={live} key_lookups_after={plans}"] = sql
    for live, sql in descent._WITH_CANDIDATES.items():
        out[f"beam and candidates live_leaves={live} key_lookups_after=True"] = sql
    return out | {"node summaries": descent._NODE_SUMMARIES, "node vectors": descent._NODE_VECTORS}


def _recall() -> dict[str, str]:
    out = {}
    kinds: tuple[recall.NearestKind, ...] = ("facts", "cells", "roots")
    for kind, exact, as_of in itertools.product(kinds, (True, False), (None, AS_OF)):
        name = f"nearest {kind} {'exact' if exact else 'hnsw'}{' as_of' if as_of else ''}"
        out[name] = recall.nearest_sql(kind, exact=exact, as_of=as_of, dim=DIM)
    out["set ef_search"] = queries.fill(recall._SET_EF_SEARCH, ef_search=EF)
    out["set iterative_scan"] = recall._SET_ITERATIVE_SCAN
    return out | {"anchor candidates": recall._ANCHOR_CANDIDATES}


def _temporal() -> dict[str, str]:
    names = (
        "_KNOWN_SUBJECTS",
        "_SUBJECT_PROBE",
        "_SUBJECT_FACTS",
        "_FACTS_NAMING",
        "_FACTS_BY_ID",
        "_ENTITY_ROOT",
        "_CHILDREN",
        "_CHILDREN_OF",
        "_TEXTS_NAMING",
        "_USER_SPEAKER",
    )
    return {n.strip("_").lower(): getattr(temporal, n) for n in names}


def _recall_filter() -> dict[str, str]:
    names = ("_MATCHING_FACTS", "_MATCHING_CELLS", "_NEAREST_FACTS", "_NEAREST_CELLS")
    return {n.strip("_").lower(): getattr(recall_filter, n) for n in names}


def _corroborate() -> dict[str, str]:
    return {"candidate turns": corroborate._CANDIDATE_TURNS}


RENDERERS: dict[str, Callable[[], dict[str, str]]] = {
    "recall_channels": _channels,
    "evidence": _evidence,
    "descent": _descent,
    "recall": _recall,
    "temporal": _temporal,
    "recall_filter": _recall_filter,
    "corroborate": _corroborate,
}


def _texts(aggregate: str) -> dict[str, str]:
    """The statements of a file by name, read without marking them taken."""
    return {name: statement.text for name, statement in queries.load(aggregate).statements.items()}


def _golden_text(variants: dict[str, str]) -> str:
    head = "-- Generated by tests/unit/test_sql_golden.py (MEMFOREST_UPDATE_GOLDEN=1): the statements as sent.\n"
    return head + "".join(f"\n-- variant: {name} --\n{sql};\n" for name, sql in variants.items())


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_every_variant_renders_as_its_golden_file(aggregate: str) -> None:
    variants = RENDERERS[aggregate]()
    assert not any(queries.placeholders(sql) for sql in variants.values()), "a placeholder left unfilled"
    text = _golden_text(variants)
    path = GOLDEN / f"{aggregate}.sql"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path} is stale: MEMFOREST_UPDATE_GOLDEN=1 regenerates it"


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_every_named_statement_is_taken_and_every_variant_is_a_named_one(aggregate: str) -> None:
    """The modules took their statements at import (an unknown name fails it with KeyError)."""
    assert queries.load(aggregate).unused() == set()
    statements = _texts(aggregate)
    texts = {queries.fill(sql, dim=DIM, f=FOREST, ef_search=EF) for sql in statements.values()}
    texts |= {queries.fill(sql, dim=DIM, ef_search=EF) for sql in statements.values()}
    assert set(RENDERERS[aggregate]().values()) <= texts


def test_an_unknown_name_fails_clearly() -> None:
    with pytest.raises(KeyError, match=r"no statement named 'nope' in memforest/store/queries/evidence\.sql"):
        queries.load("evidence")["nope"]


def test_a_block_needs_its_description_and_text_and_a_name_is_defined_once() -> None:
    good = (
        "-- file comment\n\n-- name: a --\n-- The a.\n-- a note\nSELECT 1;\n\n-- name: b --\n-- The b.\nSELECT\n  2;\n"
    )
    parsed = queries.parse(good, "x.sql")
    assert {n: (s.description, s.text) for n, s in parsed.items()} == {
        "a": ("The a.", "SELECT 1"),
        "b": ("The b.", "SELECT\n  2"),
    }
    for bad in (
        "-- name: a --\nSELECT 1;\n",
        "-- name: a --\n-- The a.\n",
        good + "\n-- name: a --\n-- Again.\nSELECT 3;\n",
    ):
        with pytest.raises(ValueError, match=r"x\.sql: statement 'a'"):
            queries.parse(bad, "x.sql")


def test_placeholders_are_written_in_as_integers() -> None:
    sql = "SELECT CAST(:q AS halfvec({dim})) FROM t WHERE f = {f}"
    assert queries.fill(sql, dim=8, f=3) == "SELECT CAST(:q AS halfvec(8)) FROM t WHERE f = 3"
    assert queries.fill(sql, dim=8) == "SELECT CAST(:q AS halfvec(8)) FROM t WHERE f = :f"
    with pytest.raises(ValueError, match="dim"):
        queries.fill(sql)


def _flat(sql: str) -> str:
    """``sql`` on one line: the files break and indent statements where a space or a parenthesis is."""
    return re.sub(r"\s*([()])\s*", r"\1", re.sub(r"\s+", " ", sql))


def test_the_statements_write_what_the_python_constants_say() -> None:
    """Planner switches (db/engine.py), the forest index catalogue and the half-precision key
    (store/forest_indexes.py) and the tie margin (store/recall.py) appear in the statements as the
    constants give them, so a change there fails here until the .sql files follow."""
    channels = {n: _flat(queries.fill(sql, dim=DIM)) for n, sql in _texts("recall_channels").items()}
    for name, sql in channels.items():
        if name.startswith(("vector_", "all_")):
            switch = GENERIC_PLANS_NEXT if name.endswith("_then_generic") else CUSTOM_PLANS_AGAIN
            assert f"f.name || {_flat(switch)}," in sql, name
            assert _flat(indexed_sql("f.forest_id")) in sql, name
        if name.startswith(("vector_indexed", "all_indexed")):
            assert _flat(half_precision(f"x.{GRAPH_COLUMN}", DIM)) in sql, name
    assert channels["plans_as_usual"] == _flat(f"SELECT {CUSTOM_PLANS_AGAIN} AS reset")
    assert _flat(INDEXED_SQL) in channels["indexed_and_knobs"]
    assert _flat(indexed_sql("f.forest_id")) in channels["forest_for_recall"]
    for name, sql in _texts("descent").items():
        plans = _flat(f", {KEY_LOOKUP_PLANS} AS plans")
        assert (plans in _flat(sql)) is name.endswith("_then_key_lookups"), name
    nearest = _flat(queries.fill(_texts("recall")["nearest_cells_hnsw"], dim=DIM))
    assert _flat(half_precision("CAST(:q AS vector)", DIM)) in nearest
    for aggregate in AGGREGATES:
        for name, sql in _texts(aggregate).items():
            margins = set(re.findall(r"LIMIT :\w+ \+ (\d+)", sql))
            assert margins <= {str(recall.TIE_MARGIN)}, (aggregate, name)


def test_the_variants_of_the_channels_share_their_text() -> None:
    """Each channels statement is whole; these checks keep the copies alike: a generic-next variant
    differs from its custom one in the switch alone, and every channel in one statement is the
    vector part's CTEs, then the lexical part's, and the same closing tree rows. The differences:
    every channel in one statement writes the question's tsquery as an InitPlan (it may run on a
    generic plan), the lexical part alone as a call that its parameter plan folds into a constant;
    and every channel of a forest read exactly takes both parts' facts and cell leaves from one pass
    over each (:func:`test_a_forest_read_exactly_is_read_once_for_both_parts`)."""
    q = _texts("recall_channels")
    assert not any(INIT_PLAN_TSQUERY in q[name] for name in q if name.startswith("lexical_"))
    for forest, as_of in itertools.product(("exact", "indexed"), ("", "_as_of")):
        vector = q[f"vector_{forest}{as_of}"]
        assert q[f"vector_{forest}{as_of}_then_generic"] == vector.replace(CUSTOM_PLANS_AGAIN, GENERIC_PLANS_NEXT)
        lexical = q[f"lexical_{'scan' if forest == 'exact' else 'indexed'}{as_of if forest == 'exact' else ''}"]
        assert INIT_PLAN_TSQUERY in q[f"all_{forest}{as_of}"]
        both = q[f"all_{forest}{as_of}"].replace(INIT_PLAN_TSQUERY, TSQUERY)
        ids = "ids(tree_id) AS ("
        lexical_ctes = lexical.removeprefix("WITH ")[: lexical.index(ids) - len("WITH ")]
        if forest == "indexed":  # (every channel of an indexed forest names it by the literal)
            lexical_ctes = re.sub(r":f\b", "{f}", lexical_ctes)
            assert both.startswith(vector[: vector.index(ids)] + lexical_ctes), (forest, as_of)
        else:
            shared = "fh AS MATERIALIZED ("
            assert both.startswith(vector[: vector.index(shared)] + "fa AS MATERIALIZED ("), (forest, as_of)
            assert lexical_ctes[lexical_ctes.index("lx AS MATERIALIZED (") :] in both, (forest, as_of)
        tree_rows = "UNION ALL SELECT 'tree'"
        assert both[both.index(tree_rows) :] == vector[vector.index(tree_rows) :], (forest, as_of)
        assert vector[vector.index("UNION ALL SELECT 'root'") : vector.index(tree_rows)] in both
        assert lexical[lexical.index("UNION ALL SELECT 'lexical_fact'") : lexical.index(tree_rows)] in both


def _where(sql: str, cte: str) -> list[str]:
    """The conditions of ``cte``'s WHERE in ``sql`` (one per line, ``AND`` dropped)."""
    body = sql[sql.index(f"{cte} AS MATERIALIZED (") :]
    body = body[body.index("WHERE ") : body.index("\n)")]
    lines = [line.strip().removeprefix("WHERE ").removeprefix("AND ") for line in body.split("\n")]
    return [line for line in lines if line not in ("", ")") and not line.startswith(("ORDER BY", "SELECT", "FROM"))]


def test_a_forest_read_exactly_is_read_once_for_both_parts() -> None:
    """Every channel of a forest read exactly reads its facts once and its cell leaves once (fa, na:
    each row's distance, and its rank where its text matches), with the rows the two parts read
    alone: the vector part's without its "embedding IS NOT NULL" (a NULL distance, left out by
    fh and ch), the lexical part's without its match (a NULL rank, left out by lf and ln)."""
    q = _texts("recall_channels")
    for as_of in ("", "_as_of"):
        both, vector, lexical = q[f"all_exact{as_of}"], q[f"vector_exact{as_of}"], q[f"lexical_scan{as_of}"]
        match = "x.tsv @@ to_tsquery('english', :tsq)"
        for pass_, part in (("fa", "fh"), ("na", "ch")):
            alone = [c for c in _where(vector, part) if c != "x.embedding IS NOT NULL"]
            assert _where(both, pass_) == alone, (as_of, pass_)
        assert [c for c in _where(lexical, "lf") if c != match] == _where(both, "fa"), as_of
        assert [c for c in _where(lexical, "ln") if c != match] == _where(both, "na"), as_of
        assert "FROM fa\n  WHERE d IS NOT NULL\n  ORDER BY d, fact_id LIMIT :nf" in both
        assert "FROM na\n  WHERE d IS NOT NULL\n  ORDER BY d, leaf_cell_id LIMIT :nc" in both
        assert "FROM fa\n  WHERE s IS NOT NULL\n  ORDER BY s DESC, fact_id LIMIT :nl" in both
        assert "FROM na\n  WHERE s IS NOT NULL\n  ORDER BY s DESC, node_id LIMIT :nl" in both
