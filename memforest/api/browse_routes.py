"""Browse endpoints: facts (filters, provenance, supersession), trees and nodes of one forest.

Read-only; a tenant key with the ``read`` scope. The tenant comes from the key only, every statement
filters by it and runs inside ``db.tenant(tid)``; another tenant's ids are 404 exactly like absent
ones. The use cases live in ``memforest.app.browse`` (shared with the MCP server)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from memforest.api.auth import Reader, Writer
from memforest.api.openapi import ERRORS
from memforest.api.paths import SegmentRoute
from memforest.app import browse, facts
from memforest.db.engine import Database
from memforest.domain import FactKind, TreeKind
from memforest.schemas import Fact, Node, Page, Tree
from memforest.schemas.agent import FactCorrectionIn, FactDeleted
from memforest.settings import Settings

router = APIRouter(prefix="/v1", tags=["browse"], route_class=SegmentRoute)

Limit = Annotated[int, Query(ge=1, le=browse.MAX_LIMIT, description="Page size.")]
Cursor = Annotated[str | None, Query(max_length=200, description="`next_cursor` of the previous page.")]


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


@router.get("/forests/{forest}/facts", response_model=Page[Fact], response_model_exclude_unset=True, responses=ERRORS)
async def get_facts(
    forest: str,
    request: Request,
    caller: Reader,
    kind: Annotated[FactKind | None, Query(description="Only facts of this kind.")] = None,
    entity: Annotated[str | None, Query(min_length=1, max_length=200, description="Entity label or key.")] = None,
    session: Annotated[
        str | None, Query(min_length=1, max_length=200, description="A source session's external id.")
    ] = None,
    valid_at: Annotated[datetime | None, Query(description="Only facts valid at this time.")] = None,
    as_of: Annotated[
        datetime | None, Query(description="Only facts known (recorded, not retracted) and valid at this time.")
    ] = None,
    include_superseded: Annotated[bool, Query(description="Also facts superseded by a newer value.")] = False,
    include_retracted: Annotated[bool, Query(description="Also retracted (forgotten) facts.")] = False,
    q: Annotated[
        str | None, Query(min_length=1, max_length=500, description="Text contains / full-text match.")
    ] = None,
    speaker: Annotated[
        str | None, Query(min_length=1, max_length=200, description="Only facts of this speaker (any case).")
    ] = None,
    valid_from: Annotated[
        datetime | None, Query(description="Window start: only facts still valid after this time.")
    ] = None,
    valid_to: Annotated[datetime | None, Query(description="Window end: only facts valid before this time.")] = None,
    cursor: Cursor = None,
    limit: Limit = 50,
) -> dict[str, Any]:
    """Canonical facts of the forest in time order (`valid_from`, then id), cursor-paginated.

    Response: `{"items": [fact...], "next_cursor": str | null}`. Each fact: `id` (string), `text`,
    `kind`, `status` (`current`, `superseded` or `retracted`), `entities` (labels), `topics`, `speaker`,
    `time_text`, `valid_from`, `valid_to`, `recorded_at`, `retracted_at` (ISO 8601 or null),
    `supersedes` and `superseded_by` (fact ids or null), `source_count`.

    `valid_at` and `as_of` replace the supersession filter by the validity interval (a fact superseded
    later is listed for times it was valid); with both, `valid_at` is the valid time and `as_of` the
    knowledge time. `valid_from` / `valid_to` keep the facts whose validity interval overlaps that
    window (either end may be left open).
    """
    flt = browse.FactFilter(
        kind=kind.value if kind is not None else None,
        entity=entity,
        session=session,
        valid_at=valid_at,
        as_of=as_of,
        include_superseded=include_superseded,
        include_retracted=include_retracted,
        q=q,
        speaker=speaker,
        valid_from=valid_from,
        valid_to=valid_to,
    )
    page = await browse.facts_page(_db(request), caller.tenant_id, forest, flt, cursor=cursor, limit=limit)
    return page.to_json()


@router.get("/forests/{forest}/facts/{fact_id}", response_model=Fact, responses=ERRORS)
async def get_fact(forest: str, fact_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """One fact (the fields of the listing) plus:

    - `provenance`: its sources, oldest first, one per cell: `session_id` (external id), `session_time`,
      `cell_id`, `turn_ids` (the client's turn ids), `time`, `snippet` (the turns' text, shortened),
      `linked_at`.
    - `supersession_chain`: the facts linked by supersession, oldest first, this one included
      (`is_requested`): `id`, `text`, `valid_from`, `valid_to`, `recorded_at`, `retracted_at`.
    - `placements`: the trees holding it: `tree_id`, `tree_kind`, `tree_label`, `node_id` (its leaf).
    """
    return await browse.fact_detail(_db(request), caller.tenant_id, forest, fact_id)


@router.patch("/forests/{forest}/facts/{fact_id}", tags=["facts"], response_model=Fact, responses=ERRORS)
async def patch_fact(forest: str, fact_id: str, body: FactCorrectionIn, request: Request, caller: Writer) -> Any:
    """Correct a fact: a new fact (kind `correction`, no source turns) with `text`, placed in the same
    trees, supersedes it from `valid_from` (default now); the old one stays, marked superseded.
    Answers the new fact. 409 when the fact is already superseded (correct the current one)."""
    settings: Settings = request.app.state.settings
    return await facts.correct_fact(
        _db(request), settings, request.app.state.backends, caller.tenant_id, forest, fact_id, body.text,
        body.valid_from, key_id=caller.principal.key_id,
    )  # fmt: skip


@router.delete("/forests/{forest}/facts/{fact_id}", tags=["facts"], response_model=FactDeleted, responses=ERRORS)
async def delete_fact(
    forest: str,
    fact_id: str,
    request: Request,
    caller: Writer,
    forget_text: Annotated[
        bool, Query(description="Also forget the text: the fact's history keeps its events without it.")
    ] = False,
) -> dict[str, Any]:
    """Delete a fact: it leaves query, browse, listings and export, and its leaves leave every tree
    (rebalanced, touched paths refreshed). Its history (`.../history`) keeps a `deleted` event with
    the text, or, with `forget_text`, no text in any of its events. A second delete is a 404."""
    settings: Settings = request.app.state.settings
    return await facts.delete_fact(
        _db(request), settings, request.app.state.backends, caller.tenant_id, forest, fact_id,
        key_id=caller.principal.key_id, forget_text=forget_text,
    )  # fmt: skip


@router.get("/forests/{forest}/trees", response_model=Page[Tree], responses=ERRORS)
async def get_trees(
    forest: str,
    request: Request,
    caller: Reader,
    kind: Annotated[TreeKind | None, Query(description="Only trees of this scope kind.")] = None,
    cursor: Cursor = None,
    limit: Limit = 50,
) -> dict[str, Any]:
    """The forest's MemTrees in creation order, cursor-paginated.

    Response: `{"items": [tree...], "next_cursor": str | null}`. Each tree: `id`, `kind` (`session`,
    `entity` or `scene`), `label`, `key`, `root_node_id` (string or null), `height`, `n_leaves`,
    `fanout`, `created_at`.
    """
    page = await browse.trees_page(_db(request), caller.tenant_id, forest, kind, cursor=cursor, limit=limit)
    return page.to_json()


@router.get("/forests/{forest}/nodes/{node_id}", response_model=Node, responses=ERRORS)
async def get_node(
    forest: str,
    node_id: str,
    request: Request,
    caller: Reader,
    cursor: Annotated[
        str | None, Query(max_length=200, description="`children_next_cursor` of a previous call.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=browse.MAX_LIMIT, description="Children per page.")] = 50,
) -> dict[str, Any]:
    """One tree node and a page of its children in time order.

    Response: `id`, `tree` {`id`, `kind`, `label`}, `level` (0 = leaf), `interval` {`start`, `end`},
    `parent_id` (string or null), `dirty`, `n_children`, `summary` (internal nodes; null until refreshed),
    `leaf` (leaves: {`kind`: `fact` or `cell`, `id`, `text`}), `children` (each: `id`, `level`,
    `interval`, `n_children`, `dirty`, `text` (summary or leaf text, shortened), `leaf` {`kind`, `id`}
    or null) and `children_next_cursor`.
    """
    return await browse.node_detail(_db(request), caller.tenant_id, forest, node_id, cursor=cursor, limit=limit)
