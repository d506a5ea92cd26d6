"""A client's edits to one remembered fact (issue 18, ADR 0020).

**Correction.** A new fact asserted by the client (``kind = 'correction'``, no source turns) takes
the old fact's entities, topics, speaker and (subject, attribute) slot, is linked to the old fact's
entities and hung in every tree that holds the old fact (a scene tree's cluster counts it as a
member, as routing would), and supersedes it: the old fact's ``valid_to`` becomes the correction's
``valid_from`` and the two point at each other. Nothing is deleted, so ``include_superseded`` and the
supersession chain still show the old text. Only the paths the new leaves touched are refreshed.

**Deletion.** The fact leaves the forest as a retraction would remove a fact that lost its last
source: its supersession slot is re-threaded around it, its leaves leave every tree with B+-tree
rebalancing, entities and scene clusters are recounted (emptied ones go with their trees), and only
the touched paths are refreshed. Its source turns stay. Deleting again is a NotFoundError.

Both run in one transaction under the forest lock; model calls (embedding, refresh) happen outside it.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.lifecycle.retract_facts import remove_fact
from memforest.lifecycle.retract_report import RetractReport, RetractWork
from memforest.lifecycle.retract_settle import settle_entities
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.pipeline.canonical import clean_surface, text_hash
from memforest.pipeline.job_bell import DELIVERIES
from memforest.pipeline.refresh import refresh_forest
from memforest.settings import Settings
from memforest.store import entities, fact_edits, fact_history, scenes
from memforest.store.fact_history import actor_knobs
from memforest.store.facts import NewFact, insert_fact
from memforest.store.retraction_graph import scene_cluster
from memforest.store.sql import Conn, Row, as_vector, lock_forest
from memforest.store.tenants import get_forest
from memforest.store.trees import insert_leaf, load_tree
from memforest.text.digits import decimal_int

__all__ = ["CORRECTION_KIND", "CorrectionResult", "correct_fact", "delete_fact", "parse_fact_id"]

#: The ``kind`` of a fact the client asserted as a correction.
CORRECTION_KIND = "correction"


def parse_fact_id(value: str) -> int:
    """A fact id from a path; anything that is not one is simply absent (NotFoundError)."""
    fact_id = decimal_int(value)
    if fact_id is None:
        raise NotFoundError("no such fact")
    return fact_id


@dataclass(frozen=True, slots=True)
class CorrectionResult:
    """The new fact and what its placement touched."""

    fact_id: int
    replaces: int
    trees: int
    nodes_refreshed: int


async def _locked_fact(conn: Conn, tenant_id: uuid.UUID, forest_name: str, fact_id: int) -> tuple[int, Row]:
    forest = await get_forest(conn, tenant_id, forest_name)
    await lock_forest(conn, tenant_id, forest.forest_id)
    row = await fact_edits.fact_for_edit(conn, tenant_id, forest.forest_id, fact_id)
    if row is None or row["retracted_at"] is not None:
        raise NotFoundError(f"no fact {fact_id} in forest {forest_name!r}")
    return forest.forest_id, row


async def correct_fact(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_name: str,
    fact_id: str,
    text: str,
    valid_from: datetime | None = None,
    *,
    actor: str | None = None,
) -> CorrectionResult:
    """Supersede fact ``fact_id`` with the client's corrected ``text`` from ``valid_from`` (default now).

    NotFoundError for an unknown forest or fact; ConflictError when the fact is already superseded
    (correct the current one) or another fact has the same text; InputError when ``valid_from`` is
    before the fact's own start. ``actor`` is named in the facts' history events (ADR 0044)."""
    fid = parse_fact_id(fact_id)
    surface = clean_surface(text)
    if not surface or surface == ".":
        raise InputError("text must not be empty", location="text")
    start = valid_from or datetime.now(UTC)
    vec = np.asarray((await backends.embedder.embed([surface], stage="correct_embed"))[0], dtype=np.float32)
    async with db.tenant(tenant_id, knobs=actor_knobs(actor)) as conn:
        forest_id, old = await _locked_fact(conn, tenant_id, forest_name, fid)
        if old["superseded_by"] is not None:
            raise ConflictError(f"fact {fid} is superseded by fact {old['superseded_by']}; correct that one")
        if start < old["valid_from"]:
            raise InputError("valid_from is before the corrected fact's valid_from", location="valid_from")
        new_id = await _insert_correction(conn, tenant_id, forest_id, old, surface, start, vec)
        await fact_edits.supersede(conn, tenant_id, fid, new_id, start)
        trees = await _place_like(conn, tenant_id, forest_id, old, new_id, surface, start, vec)
    DELIVERIES.ring()  # (committed: its memory.changed delivery goes out now, not after the refresh)
    refreshed = await refresh_forest(
        db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency,
    )  # fmt: skip
    return CorrectionResult(new_id, fid, trees, refreshed.nodes_refreshed)


async def _insert_correction(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, old: Row, text: str, start: datetime, vec: Any
) -> int:
    fact = NewFact(
        text=text, text_hash=text_hash(text), kind=CORRECTION_KIND, entities=list(old["entities"] or []),
        topics=list(old["topics"] or []), speaker=old["speaker"], subject=old["subject"],
        attribute=old["attribute"], value=None, time_text=None, valid_from=start, valid_to=None, recorded_at=None,
        embedding=vec, session_id=0, cell_id=0, turn_ids=(),  # no source turns: the client asserted it
    )  # fmt: skip
    return await insert_fact(conn, tenant_id, forest_id, fact)


async def _place_like(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, old: Row, new_id: int, text: str, start: datetime, vec: Any
) -> int:
    """Link the new fact to the old one's entities and hang it in every tree holding the old one."""
    for link in await fact_edits.fact_entity_links(conn, tenant_id, int(old["fact_id"])):
        await entities.link_fact(
            conn, tenant_id, forest_id, key=str(link["key"]), label=str(link["label"]), time=start,
            fact_id=new_id, session_id=int(link["session_id"]),
        )  # fmt: skip
    placements = await fact_edits.fact_placements(conn, tenant_id, int(old["fact_id"]))
    stats = InsertStats()
    for p in placements:
        cluster = decimal_int(str(p["key"])) if p["kind"] == TreeKind.SCENE else None
        if cluster is not None:
            await _join_scene(conn, tenant_id, cluster, list(old["topics"] or []), start, vec)
        tree = await load_tree(conn, tenant_id, int(p["tree_id"]))
        await insert_leaf(conn, tenant_id, tree, LeafSpec("fact", new_id, start, start, new_id, text, vec), stats)
    return len(placements)


async def _join_scene(
    conn: Conn, tenant_id: uuid.UUID, cluster_id: int, topics: list[str], start: datetime, vec: Any
) -> None:
    """Count the correction into the scene cluster (routing's running centroid update)."""
    row = await scene_cluster(conn, tenant_id, cluster_id)
    if row is None:
        return
    n = int(row["member_count"])
    centroid = as_vector(row["centroid"]) * n + vec
    norm = float(np.linalg.norm(centroid))
    counts: dict[str, int] = {k: int(v) for k, v in dict(row["topic_counts"] or {}).items()}
    for t in topics:
        counts[t] = counts.get(t, 0) + 1
    await scenes.add_member(
        conn, tenant_id, cluster_id, centroid=centroid / norm if norm else centroid, topic_counts=counts, time=start
    )


async def delete_fact(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_name: str,
    fact_id: str,
    *,
    actor: str | None = None,
    forget_text: bool = False,
) -> RetractReport:
    """Remove fact ``fact_id`` from the forest (see the module docstring); NotFoundError when absent.
    ``actor`` is named in the facts' history events; ``forget_text`` blanks the text of the fact's
    history events, its tombstone included, which then say so (ADR 0044)."""
    fid = parse_fact_id(fact_id)
    report = RetractReport(forest=forest_name, session="")
    t0 = time.perf_counter()
    async with db.tenant(tenant_id, knobs=actor_knobs(actor)) as conn:
        forest_id, _ = await _locked_fact(conn, tenant_id, forest_name, fid)
        work = RetractWork(conn, tenant_id, forest_id, report)
        await fact_edits.delete_fact_sources(conn, tenant_id, fid)
        # (a fact it superseded outside a slot, as a slotless fact's correction does, is current
        # again: removal releases every fact still superseded by it, lifecycle.retract_chain)
        await remove_fact(work, fid)
        await settle_entities(work, {})
        if forget_text:
            await fact_history.drop_texts(conn, tenant_id, fid)
    DELIVERIES.ring()  # (committed: its memory.changed delivery goes out now, not after the refresh)
    t1 = time.perf_counter()
    refreshed = await refresh_forest(
        db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=report.usage,
    )  # fmt: skip
    report.structural_wall_s, report.refresh_wall_s = t1 - t0, time.perf_counter() - t1
    report.nodes_refreshed = refreshed.nodes_refreshed
    report.summaries_changed = refreshed.summaries_changed
    report.leaves_removed += report.rebalance.leaves
    return report
