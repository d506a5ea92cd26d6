"""The embedded server's own settings (memforest.conf): written before it starts, included once."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import cluster_root

from memforest.db.embedded import TUNING_FILE, auto_shared_buffers, start_embedded, stop_embedded, write_tuning
from memforest.settings import Settings


def test_shared_buffers_reach_a_new_server() -> None:
    root = cluster_root("memforest-tuning-")
    server = start_embedded(root / "pgdata", delete_on_exit=True, shared_buffers="160MB")
    try:
        assert "160MB" in server.handle.psql("SHOW shared_buffers;")
        again = start_embedded(root / "pgdata", delete_on_exit=True, shared_buffers="999MB")  # running: kept
        stop_embedded(again)
        assert "160MB" in server.handle.psql("SHOW shared_buffers;")
    finally:
        stop_embedded(server)


def test_include_is_written_once(tmp_path: Path) -> None:
    (tmp_path / "postgresql.conf").write_text("port = 5432\n", encoding="utf-8")
    write_tuning(tmp_path, "256MB")
    write_tuning(tmp_path, "auto")
    conf = (tmp_path / "postgresql.conf").read_text(encoding="utf-8")
    assert conf.count(f"include_if_exists = '{TUNING_FILE}'") == 1
    assert f"shared_buffers = '{auto_shared_buffers()}'" in (tmp_path / TUNING_FILE).read_text(encoding="utf-8")


def test_auto_is_bounded() -> None:
    mb = int(auto_shared_buffers().removesuffix("MB"))
    assert 128 <= mb <= 4096


def test_bad_size_is_refused() -> None:
    with pytest.raises(ValueError, match="embedded_shared_buffers"):
        Settings(database={"embedded_shared_buffers": "lots"})  # type: ignore[arg-type]
