"""``/docs`` is Swagger UI from assets the package serves itself (issue 52 item 6): the page loads
nothing from a CDN, so it works offline."""

from __future__ import annotations

from support.apps import AppClient


async def test_docs_page_uses_bundled_assets(api_client: AppClient) -> None:
    client = api_client.client
    page = await client.get("/docs")
    assert page.status_code == 200
    html = page.text
    assert "cdn" not in html.lower() and "https://" not in html
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/openapi.json"):
        assert asset in html
    js = await client.get("/docs/assets/swagger-ui-bundle.js")
    assert js.status_code == 200 and len(js.content) > 100_000
    assert "javascript" in js.headers["content-type"]
    css = await client.get("/docs/assets/swagger-ui.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]
    assert (await client.get("/docs/assets/favicon-32x32.png")).status_code == 200
    assert (await client.get("/redoc")).status_code == 404  # ReDoc would load from a CDN
