"""The memory browser at ``/ui`` and the read endpoints it needs beyond browse: the tenant's forests
with counts and last write, a forest's entities, an entity's timeline, and the calling key's scopes.

The page is static (plain ES modules and CSS in ``memforest/ui``, no build step, no CDN) and talks
only to ``/v1`` with the tenant key the user pastes. Its responses forbid every origin but this one
(Content-Security-Policy), so no script, style or request can leave the server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from memforest.api.auth import Reader
from memforest.api.openapi import ERRORS
from memforest.api.paths import SegmentRoute
from memforest.app import overview
from memforest.app.browse import MAX_LIMIT
from memforest.db.engine import Database
from memforest.schemas import Page
from memforest.schemas.overview import EntitySummary, EntityTimeline, ForestOverviewList, KeyInfo

UI_PATH = "/ui"
ASSETS = Path(__file__).resolve().parent.parent / "ui"
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

router = APIRouter(prefix="/v1", tags=["browse"], route_class=SegmentRoute)


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


@router.get("/key", response_model=KeyInfo, responses=ERRORS)
async def get_key(caller: Reader) -> dict[str, Any]:
    """The calling tenant key's scopes; `can_write` when it may correct, delete and retract."""
    scopes = sorted(caller.principal.scopes)
    return {"scopes": scopes, "can_write": caller.principal.allows("write")}


@router.get("/overview", response_model=ForestOverviewList, responses=ERRORS)
async def get_overview(request: Request, caller: Reader) -> dict[str, Any]:
    """Every forest of the tenant by name with `sessions`, `facts` (not retracted), `facts_current`,
    `trees` and `last_write` (the latest session accepted, fact recorded or retracted)."""
    return {"items": await overview.forests(_db(request), caller.tenant_id)}


@router.get("/forests/{forest}/entities", response_model=Page[EntitySummary], responses=ERRORS)
async def get_entities(
    forest: str,
    request: Request,
    caller: Reader,
    q: Annotated[str | None, Query(min_length=1, max_length=200, description="A part of the entity's name.")] = None,
    cursor: Annotated[str | None, Query(max_length=200, description="`next_cursor` of the previous page.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="Page size.")] = 50,
) -> dict[str, Any]:
    """The forest's entities that facts name, most facts first, cursor-paginated: `key`, `label`,
    `is_speaker`, `fact_count`, `session_count`, `first_time`, `last_time`."""
    page = await overview.entities_page(_db(request), caller.tenant_id, forest, q=q, cursor=cursor, limit=limit)
    return page.to_json()


@router.get("/forests/{forest}/entities/{entity}/timeline", response_model=EntityTimeline, responses=ERRORS)
async def get_entity_timeline(forest: str, entity: str, request: Request, caller: Reader) -> dict[str, Any]:
    """An entity (label or key) and its timeline: `chains`, one per attribute of the entity
    (`residence`, `employer`...) with its values in valid-time order, each `{fact_id, text, kind,
    value, valid_from, valid_to, status}` (superseded values included, retracted ones not), and
    `events`, the other facts naming it in time order."""
    return await overview.entity_timeline(_db(request), caller.tenant_id, forest, entity)


class _UIFiles(StaticFiles):
    """The browser's files, each answered with the page's security headers."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(_HEADERS)
        return response


def install_ui(app: FastAPI) -> None:
    """Serve the memory browser at ``/ui/`` (``/ui`` redirects there)."""

    @app.get(UI_PATH, include_in_schema=False)
    async def ui_root(request: Request) -> RedirectResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return RedirectResponse(f"{root}{UI_PATH}/")

    app.mount(UI_PATH, _UIFiles(directory=str(ASSETS), html=True), name="ui")
