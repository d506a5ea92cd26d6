"""``create_api_app``: the FastAPI application, its lifespan (database, backends, in-process worker).

The process that serves it (``memforest.servers``) adds extensions such as the MCP endpoint, so
this adapter imports no other adapter."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from fastapi import FastAPI

from memforest.api import (
    browse_routes,
    history_routes,
    lifecycle_routes,
    quota_routes,
    remat_routes,
    transfer_routes,
    ui_routes,
    webhook_routes,
)
from memforest.api.docs_page import install_docs
from memforest.api.health import health_router
from memforest.api.limits import install_limits
from memforest.api.metrics import install_observability
from memforest.api.problems import BodyLimitMiddleware, install_problem_handlers
from memforest.api.routes import admin_router, tenant_router
from memforest.app.auth import check_admin_key
from memforest.app.jobs import running_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.settings import Settings


class AppExtension(Protocol):
    """Something the serving process hangs into the app: routes mounted once, a context run for the app's life."""

    def mount(self, app: FastAPI) -> None:
        """Add its routes or sub-application to ``app``."""

    def run(self) -> AbstractAsyncContextManager[None]:
        """Enter while the app runs (inside the lifespan, after the database and worker)."""


def create_api_app(
    settings: Settings,
    *,
    db: Database | None = None,
    start_worker: bool = True,
    extensions: Sequence[AppExtension] = (),
) -> FastAPI:
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
            await stack.enter_async_context(running_worker(database, settings, backends, enabled=start_worker))
            for extension in extensions:
                await stack.enter_async_context(extension.run())
            yield

    app = FastAPI(
        title="MemForest",
        summary="Long-term memory for agents: time-aware memory trees per tenant.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # install_docs: Swagger UI from bundled assets, no CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.admin_key = admin_key
    install_problem_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.api.max_body_bytes)
    install_limits(app, settings)  # per-tenant rate and in-flight limits, before the body is read
    app.include_router(admin_router)
    app.include_router(tenant_router)
    app.include_router(browse_routes.router)
    app.include_router(history_routes.router)  # /v1/forests/{f}/facts/{id}/history
    app.include_router(remat_routes.router)
    app.include_router(lifecycle_routes.router)
    app.include_router(transfer_routes.router)
    app.include_router(webhook_routes.router)
    app.include_router(quota_routes.router)  # /v1/admin/tenants/{id}/quotas
    app.include_router(ui_routes.router)  # /v1/overview, /v1/key, entities and their timelines
    for extension in extensions:
        extension.mount(app)

    install_docs(app)  # /docs
    ui_routes.install_ui(app)  # /ui: the memory browser
    app.include_router(health_router)  # /healthz, /readyz
    install_observability(app)  # last, so its middleware is outermost; adds /metrics
    return app
