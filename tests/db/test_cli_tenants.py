"""Onboarding without curl (issue 52 item 6): ``memforest tenant create|list`` and ``memforest key
create|list|revoke`` against the real database, and the first tenant and key of ``serve --bootstrap``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memforest.cli import main
from memforest.commands.tenant_cmd import bootstrap
from memforest.db.engine import Database


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    return db_env


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_tenant_and_key_round_trip(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tenant", "list"]) == 0
    assert "no tenants" in capsys.readouterr().out
    created = _json(capsys, "tenant", "create", "acme", "--json")
    assert isinstance(created, dict) and created["name"] == "acme"
    assert main(["tenant", "create", "acme"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["memforest: error: tenant 'acme' already exists"]
    listed = _json(capsys, "tenant", "list", "--json")
    assert isinstance(listed, list) and [t["name"] for t in listed] == ["acme"]

    assert main(["key", "create", "--tenant", "acme", "--scopes", "read,write"]) == 0
    out = capsys.readouterr().out
    key = next(line.strip() for line in out.splitlines() if line.strip().startswith("mf_"))
    assert "shown only now" in out
    new = _json(capsys, "key", "create", "--tenant", "acme", "--scopes", "read", "--json")
    assert isinstance(new, dict) and new["scopes"] == ["read"] and new["key"].startswith("mf_")
    keys = _json(capsys, "key", "list", "--tenant", "acme", "--json")
    assert isinstance(keys, list) and len(keys) == 2
    assert all(key not in json.dumps(k) for k in keys)  # never the key itself
    assert {k["prefix"] for k in keys} == {key[:10], new["key"][:10]}

    assert main(["key", "revoke", new["id"]]) == 0  # the tenant is found by the key's id
    assert f"revoked key {new['id']}" in capsys.readouterr().out
    assert main(["key", "revoke", new["id"], "--tenant", "acme"]) == 0  # idempotent
    capsys.readouterr()
    keys = _json(capsys, "key", "list", "--tenant", "acme", "--json")
    assert isinstance(keys, list)
    assert [k["revoked_at"] is not None for k in keys if k["id"] == new["id"]] == [True]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["key", "create", "--tenant", "nobody"], "no tenant named 'nobody'"),
        (["key", "create", "--tenant", "acme", "--scopes", "read,sudo"], "scopes must be a non-empty subset"),
        (["key", "revoke", "not-a-uuid"], "not a key id: 'not-a-uuid'"),
        (["key", "revoke", "00000000-0000-4000-8000-000000000000"], "no API key with id"),
        (["key", "list", "--tenant", "nobody"], "no tenant named 'nobody'"),
    ],
)
def test_bad_input_is_one_line_and_creates_nothing(
    cli_env: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["tenant", "create", "acme"]) == 0
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    listed = _json(capsys, "tenant", "list", "--json")
    assert isinstance(listed, list) and [t["name"] for t in listed] == ["acme"]


async def test_bootstrap_creates_one_tenant_and_key_only_on_an_empty_database(db: Database) -> None:
    first = await bootstrap(db, "local", ["read", "write"])
    assert first is not None and first.tenant == "local" and first.scopes == ["read", "write"]
    assert first.key.startswith("mf_")
    assert await bootstrap(db, "local", ["read", "write"]) is None
    assert await bootstrap(db, "other", ["read", "write"]) is None  # any tenant at all: nothing made
