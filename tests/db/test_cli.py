"""The CLI against the real database: version refusal, bad input, ingest/check/stats round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memforest.cli import main
from memforest.db.engine import Database, ServerVersions
from memforest.errors import DatabaseVersionError
from memforest.formats import DEMO_PATH


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    return db_env


@pytest.mark.parametrize(
    ("found", "message"),
    [
        (ServerVersions("14.9", 140009, "0.8.0"), "PostgreSQL >= 15 required, found 14.9"),
        (ServerVersions("16.2", 160002, "0.7.4"), "pgvector >= 0.8 required, found 0.7.4"),
        (ServerVersions("16.2", 160002, None), "pgvector >= 0.8 required, found no 'vector' extension"),
    ],
)
async def test_old_servers_are_refused_with_one_line(
    db: Database, monkeypatch: pytest.MonkeyPatch, found: ServerVersions, message: str
) -> None:
    async def fake_versions() -> ServerVersions:
        return found

    monkeypatch.setattr(db, "server_versions", fake_versions)
    with pytest.raises(DatabaseVersionError, match=message) as info:
        await db.check_versions()
    assert "\n" not in str(info.value)


async def test_real_server_passes_the_version_check(db: Database) -> None:
    v = await db.check_versions()
    assert v.postgres_num >= 150000
    assert v.pgvector is not None


def _stats(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["stats", "--forest", "demo", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_bad_file_is_one_line_error_and_writes_nothing(
    cli_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    good = '{"id": "s1", "time": "2024-01-01T10:00:00Z", "turns": [{"speaker": "A", "text": "hi there friend"}]}'
    bad.write_text(good + "\n" + '{"id": "s2", "time": "2024-01-02T10:00:00Z", "turns": [{"speaker": "A"}]}\n')
    assert main(["ingest", str(bad), "--forest", "f"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "line 2" in err[0] and "text" in err[0]
    assert main(["stats", "--forest", "f"]) == 2  # the forest was never created
    assert "no forest named 'f'" in capsys.readouterr().err


def test_ingest_check_and_idempotent_stats(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(DEMO_PATH), "--forest", "demo", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["sessions_accepted"] == 5 and report["facts_new"] > 20
    assert main(["check", "--forest", "demo"]) == 0
    assert "check ok" in capsys.readouterr().out
    first = _stats(capsys)
    assert first["dirty_nodes"] == 0 and first["cells_pending"] == 0
    assert main(["ingest", str(DEMO_PATH), "--forest", "demo", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["sessions_unchanged"] == 5 and again["sessions_accepted"] == 0
    assert _stats(capsys) == first


def test_check_names_the_first_violation(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    import psycopg

    assert main(["ingest", str(DEMO_PATH), "--forest", "demo", "--json"]) == 0
    capsys.readouterr()
    from memforest.db.migrate import sync_url

    with psycopg.connect(sync_url(cli_env).replace("postgresql+psycopg://", "postgresql://")) as conn:
        conn.execute("UPDATE nodes SET dirty = true WHERE node_id = (SELECT max(node_id) FROM nodes)")
    assert main(["check", "--forest", "demo"]) == 2
    err = capsys.readouterr().err
    assert "dirty nodes left after refresh" in err
