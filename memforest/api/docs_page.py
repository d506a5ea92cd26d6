"""``/docs``: Swagger UI served from the assets of the ``swagger-ui-bundle-v2`` package, which the
app serves itself under ``/docs/assets``. No CDN is involved, so the page works offline."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

DOCS_PATH = "/docs"
ASSETS_PATH = "/docs/assets"


def install_docs(app: FastAPI) -> None:
    """Add ``/docs`` (the page) and ``/docs/assets`` (its script, stylesheet and icon). The app is
    created with ``docs_url=None`` and ``redoc_url=None``: FastAPI's own pages load from a CDN."""
    app.mount(ASSETS_PATH, StaticFiles(directory=str(swagger_ui_path)), name="swagger-ui-assets")

    @app.get(DOCS_PATH, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - API",
            swagger_js_url=f"{root}{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_PATH}/favicon-32x32.png",
        )
