"""``/metrics`` beyond loopback (issue 14): a server that listens beyond loopback refuses to start
without a metrics key, and without one the endpoint answers loopback callers only."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr
from support import admin_settings

from memforest.api.metrics import is_loopback, require_metrics_key
from memforest.db.engine import Database
from memforest.errors import ConfigurationError
from memforest.servers import create_app
from memforest.settings import Settings


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "memforest.example", ""])
def test_a_server_beyond_loopback_needs_a_metrics_key(settings: Settings, host: str) -> None:
    s = admin_settings(settings, api={"host": host})
    with pytest.raises(ConfigurationError, match="METRICS_KEY"):
        create_app(s, start_worker=False)
    with pytest.raises(ConfigurationError):
        require_metrics_key(admin_settings(settings), host)  # the host a serve command binds
    create_app(admin_settings(settings, api={"host": host, "metrics_key": SecretStr("m" * 32)}), start_worker=False)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "[::1]", "localhost", "127.0.0.2"])
def test_loopback_servers_start_without_a_metrics_key(settings: Settings, host: str) -> None:
    assert is_loopback(host)
    create_app(admin_settings(settings, api={"host": host}), start_worker=False)


async def test_without_a_key_metrics_answer_loopback_callers_only(settings: Settings, db: Database) -> None:
    app = create_app(admin_settings(settings), db=db, start_worker=False)
    async with app.router.lifespan_context(app):
        for client, status in ((("203.0.113.9", 5000), 403), (("127.0.0.1", 5000), 200), (("::1", 5000), 200)):
            transport = httpx.ASGITransport(app=app, client=client)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                r = await c.get("/metrics")
            assert r.status_code == status, (client, r.text)
    keyed = create_app(admin_settings(settings, api={"metrics_key": SecretStr("k" * 32)}), db=db, start_worker=False)
    async with keyed.router.lifespan_context(keyed):
        transport = httpx.ASGITransport(app=keyed, client=("203.0.113.9", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            assert (await c.get("/metrics")).status_code == 401
            assert (await c.get("/metrics", headers={"Authorization": "Bearer " + "k" * 32})).status_code == 200
