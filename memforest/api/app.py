"""``create_app``: the FastAPI application, its lifespan (database, backends, in-process worker)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from memforest.api.auth import check_admin_key
from memforest.api.problems import BodyLimitMiddleware, install_problem_handlers, problem_response
from memforest.api.routes import admin_router, tenant_router
from memforest.backends.factory import build_backends
from memforest.db import migrate
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.pipeline.worker import run_worker
from memforest.settings import Settings

log = logging.getLogger(__name__)


def create_app(settings: Settings, *, db: Database | None = None, start_worker: bool = True) -> FastAPI:
    """The API. Raises ConfigurationError at once without a strong admin key.

    With ``db`` the app uses (and does not close) that database; otherwise the lifespan opens the
    configured one, migrated. ``start_worker`` runs a job worker inside the process.
    """
    admin_key = check_admin_key(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            database = db if db is not None else await stack.enter_async_context(open_database(settings))
            backends = build_backends(settings)
            stack.push_async_callback(backends.aclose)
            app.state.db = database
            app.state.backends = backends
            if start_worker:
                stop = asyncio.Event()
                task = asyncio.create_task(run_worker(database, settings, backends, stop=stop))

                async def _stop_worker() -> None:
                    stop.set()
                    try:
                        await asyncio.wait_for(task, timeout=10)
                    except (TimeoutError, asyncio.CancelledError):
                        task.cancel()
                    except Exception:
                        log.exception("in-process worker failed")

                stack.push_async_callback(_stop_worker)
            yield

    app = FastAPI(
        title="MemForest",
        summary="Long-term memory for agents: time-aware memory trees per tenant.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.admin_key = admin_key
    install_problem_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.api.max_body_bytes)
    app.include_router(admin_router)
    app.include_router(tenant_router)

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["operations"], response_model=None)
    async def readyz(request: Request) -> Response:
        """Readiness: database reachable and migrated to head."""
        database: Database = request.app.state.db
        checks: dict[str, Any] = {}
        try:
            async with database.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            checks["database"] = "ok"
            current = await asyncio.to_thread(migrate.current_revision, database.url)
            head = await asyncio.to_thread(migrate.head_revision)
            checks["migrations"] = "ok" if current == head else f"at {current}, head is {head}"
        except Exception as exc:  # any failure means: not ready
            checks.setdefault("database", f"unreachable: {type(exc).__name__}")
        checks["backends"] = request.app.state.backends.describe()
        if checks.get("database") != "ok" or checks.get("migrations") != "ok":
            return problem_response(503, "unavailable", "not ready", extra={"checks": checks})
        return JSONResponse({"status": "ready", "checks": checks})

    return app
