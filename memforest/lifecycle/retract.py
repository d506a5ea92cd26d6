"""Retract a session (or one turn of it): remove what was derived only from it, detach the rest.

Through ``fact_sources`` the retracted turns lead to the facts they support. A fact with sources
elsewhere only loses these (``source_count`` and provenance shrink; its ``recorded_at`` moves to
when its remaining sources were said); a fact left without sources is removed with its leaves in
every tree, its entity links and its scene membership, and the supersession timeline of its
(subject, attribute) slot is re-threaded around it (a fact superseded only by a removed fact is
current again). A session retract drops the session's tree, cells, turns, row and jobs; a turn
retract rewrites the cell that held the turn for its remaining turns (new leaf in the session tree,
re-embedded by refresh) or removes it when it held only that turn. Entities left without facts lose
their tree (non-speakers lose their row), and empty scene clusters go with their tree.

All structural edits run in one transaction under the forest lock; leaf removals rebalance the trees
(:mod:`memforest.store.tree_delete`) and mark only the touched paths dirty; ``refresh_forest`` then
regenerates exactly those. Retracting again raises NotFoundError. See docs/adr/0007.

This module orchestrates sessions, turns and cells; the steps live by job: fact sources and facts
in :mod:`~memforest.lifecycle.retract_facts`, supersession chains in
:mod:`~memforest.lifecycle.retract_chain`, entities, scenes and emptied trees in
:mod:`~memforest.lifecycle.retract_settle`; statements in :mod:`memforest.store.retraction` and
:mod:`memforest.store.retraction_graph`.
"""

from __future__ import annotations

import hashlib
import time
import uuid

from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.lifecycle.retract_facts import retract_sources
from memforest.lifecycle.retract_report import RetractReport, RetractWork
from memforest.lifecycle.retract_settle import settle_entities
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.pipeline.accept import render_turn
from memforest.pipeline.job_bell import DELIVERIES
from memforest.pipeline.refresh import refresh_forest
from memforest.rules import entity_key
from memforest.settings import Settings
from memforest.store import retraction as q
from memforest.store.retraction_graph import find_tree, session_tree_id
from memforest.store.sql import Row, lock_forest
from memforest.store.tenants import get_forest
from memforest.store.tree_delete import drop_tree, remove_source
from memforest.store.trees import insert_leaf, load_tree
from memforest.text.digits import INT_MAX, decimal_int

__all__ = ["RetractReport", "retract"]


async def retract(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_name: str,
    session_external_id: str,
    turn_external_id: str | None = None,
) -> RetractReport:
    """Retract session ``session_external_id`` (or only its turn ``turn_external_id``) from the forest.

    NotFoundError when the forest, session or turn is absent (so a second retract is a 404);
    ConflictError for a turn retract while the session's cells still await extraction."""
    if not session_external_id or not session_external_id.strip():
        raise InputError("a session id is required", location="session_id")
    if turn_external_id is not None and not turn_external_id.strip():
        raise InputError("the turn id must not be empty", location="turn_id")
    if any("\x00" in (v or "") for v in (forest_name, session_external_id, turn_external_id)):
        raise NotFoundError("no such forest, session or turn")  # PostgreSQL text cannot hold NUL
    report = RetractReport(forest=forest_name, session=session_external_id, turn=turn_external_id)
    t0 = time.perf_counter()
    async with db.tenant(tenant_id) as conn:
        forest = await get_forest(conn, tenant_id, forest_name)
        await lock_forest(conn, tenant_id, forest.forest_id)
        work = RetractWork(conn, tenant_id, forest.forest_id, report)
        session = await q.find_session(conn, tenant_id, forest.forest_id, session_external_id)
        if session is None:
            raise NotFoundError(f"no session {session_external_id!r} in forest {forest_name!r}")
        if turn_external_id is None:
            await _retract_session(work, session)
        else:
            await _retract_turn(work, session, turn_external_id)
    DELIVERIES.ring()  # (committed: its memory.changed delivery goes out now, not after the refresh)
    t1 = time.perf_counter()
    refreshed = await refresh_forest(
        db, tenant_id, forest.forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=report.usage,
    )  # fmt: skip
    report.refresh_wall_s = time.perf_counter() - t1
    report.structural_wall_s = t1 - t0
    report.nodes_refreshed = refreshed.nodes_refreshed
    report.summaries_changed = refreshed.summaries_changed
    usage = report.usage.as_dict()
    report.model_calls = int(sum(u["calls"] for u in usage.values()))
    report.summary_calls = int(usage.get("summarize", {}).get("calls", 0))
    report.leaves_removed += report.rebalance.leaves
    return report


async def _retract_session(w: RetractWork, session: Row) -> None:
    sid = int(session["session_id"])
    turn_ids = await q.session_turn_ids(w.conn, w.tenant_id, sid)
    speakers = await _speakers(w, sid, turn_ids)
    await retract_sources(w, turn_ids)
    tree = await find_tree(w.conn, w.tenant_id, w.forest_id, TreeKind.SESSION, str(session["external_id"]))
    if tree is not None:  # the whole session tree goes at once: no rebalancing needed
        await drop_tree(w.conn, w.tenant_id, int(tree["tree_id"]))
        w.report.leaves_removed += int(tree["n_leaves"])
        w.report.trees_removed += 1
    deleted = await q.delete_session_rows(w.conn, w.tenant_id, w.forest_id, sid)
    w.report.cells += deleted.cells
    w.report.turns += deleted.turns
    w.report.sessions += deleted.sessions
    await settle_entities(w, speakers)


async def _find_turn(w: RetractWork, session: Row, turn_external_id: str) -> Row:
    """The turn by its client id; a turn sent without one is named ``<session>#<seq>`` (as in query
    provenance)."""
    sid = int(session["session_id"])
    row = await q.find_turn(w.conn, w.tenant_id, sid, turn_external_id)
    prefix = f"{session['external_id']}#"
    seq = decimal_int(turn_external_id[len(prefix) :], INT_MAX) if turn_external_id.startswith(prefix) else None
    if row is None and seq is not None:
        row = await q.find_unnamed_turn(w.conn, w.tenant_id, sid, seq)
    if row is None:
        raise NotFoundError(f"no turn {turn_external_id!r} in session {session['external_id']!r}")
    return row


async def _retract_turn(w: RetractWork, session: Row, turn_external_id: str) -> None:
    sid = int(session["session_id"])
    turn = await _find_turn(w, session, turn_external_id)
    if await q.count_turns(w.conn, w.tenant_id, sid) <= 1:  # its last turn: the whole session goes
        await _retract_session(w, session)
        return
    if await q.count_pending_cells(w.conn, w.tenant_id, sid):
        raise ConflictError(
            f"session {session['external_id']!r} is still being ingested; retract its turn when its job finished"
        )
    turn_id, seq = int(turn["turn_id"]), int(turn["seq"])
    speakers = await _speakers(w, sid, [turn_id])
    await retract_sources(w, [turn_id])
    cell = await q.cell_holding_turn(w.conn, w.tenant_id, sid, seq)
    await q.delete_turn(w.conn, w.tenant_id, turn_id)
    w.report.turns += 1
    if cell is not None:
        await _rewrite_cell(w, sid, cell)
    # The stored content changed: re-sending the original session is a conflict, not "unchanged".
    new_hash = hashlib.sha256(f"{session['content_hash']}\x00retracted\x00{seq}".encode()).hexdigest()
    await q.session_lost_turn(w.conn, w.tenant_id, sid, new_hash)
    await settle_entities(w, speakers)


async def _rewrite_cell(w: RetractWork, session_id: int, cell: Row) -> None:
    """Take the cell's old leaf out of the session tree; re-create the cell for its remaining turns
    (same cell id, so the remaining turns' fact sources stay valid) or delete it when none remain."""
    cell_id = int(cell["cell_id"])
    await remove_source(w.conn, w.tenant_id, "cell", cell_id, w.report.rebalance, w.trees)
    members = await q.turns_between(w.conn, w.tenant_id, session_id, int(cell["turn_from"]), int(cell["turn_to"]))
    if not members:
        await q.delete_cell(w.conn, w.tenant_id, cell_id)
        w.report.cells += 1
        return
    text = "\n".join(render_turn(str(m["speaker"]), str(m["text"])) for m in members)
    t_start, t_end = min(m["time"] for m in members), max(m["time"] for m in members)
    await q.rewrite_cell(
        w.conn, w.tenant_id, cell_id, text=text, t_start=t_start, t_end=t_end,
        turn_from=int(members[0]["seq"]), turn_to=int(members[-1]["seq"]),
    )  # fmt: skip
    tree_id = await session_tree_id(w.conn, w.tenant_id, session_id)
    if tree_id is not None:
        tree = w.trees.get(tree_id) or await load_tree(w.conn, w.tenant_id, tree_id)
        leaf = LeafSpec("cell", cell_id, t_start, t_end, cell_id, text)
        await insert_leaf(w.conn, w.tenant_id, tree, leaf, InsertStats())
    w.report.cells_rewritten += 1


async def _speakers(w: RetractWork, session_id: int, turn_ids: list[int]) -> dict[str, set[str]]:
    """Speakers of the retracted turns, by entity key (their entity may have to go with them)."""
    out: dict[str, set[str]] = {}
    for speaker in await q.turn_speakers(w.conn, w.tenant_id, session_id, turn_ids):
        out.setdefault(entity_key(speaker), set()).add(speaker)
    return out
