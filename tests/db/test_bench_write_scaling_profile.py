"""bench.write_scaling_profile on a tiny forest: every statement of the probes is timed and named
once, whichever path sends it, and the growth table compares the first checkpoint with the last."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repo root, not installed

from bench import write_scaling_profile
from bench.write_scaling_profile import DEFAULT_FOREST, StatementClock, checkpoints, statement_key
from memforest.db.engine import Database
from memforest.store import write_driver


def test_statement_keys_name_the_verb_and_table_and_keep_texts_apart() -> None:
    a = statement_key("INSERT INTO facts (a, b) VALUES (:a, :b)")
    b = statement_key("INSERT INTO facts (a) VALUES (:a)")
    assert a.startswith("INSERT INTO facts #") and b.startswith("INSERT INTO facts #") and a != b
    assert statement_key("SELECT  x FROM nodes\n WHERE y = 1") == statement_key("SELECT x FROM nodes WHERE y = 1")


def test_checkpoints_name_their_forest_or_the_default_in_order() -> None:
    assert checkpoints("1000, big=9000,small=1000,big=9000") == [
        (DEFAULT_FOREST, 1000),
        ("big", 9000),
        ("small", 1000),
        ("big", 9000),
    ]


def test_profile_quick(db_env: str, tmp_path: Path) -> None:
    argv = ["--quick", "--no-progress", "--database-url", db_env, "--out", str(tmp_path)]
    assert write_scaling_profile.main(argv) == 0
    result = json.loads((tmp_path / "write_scaling_profile_quick.json").read_text())
    assert (tmp_path / "write_scaling_profile_quick.png").stat().st_size > 0
    first, last = result["checkpoints"]
    assert 0 < first["facts"] < last["facts"]
    for row in (first, last):
        assert row["sessions"] == 2 and row["statements_per_session"] > 0 and row["sql_ms_per_session"] > 0
        assert any(key.startswith("INSERT INTO") for key in row["statements"])
    growth = result["growth"]
    assert growth["from_facts"] == first["facts"] and growth["to_facts"] == last["facts"]
    assert growth["top_added_ms_per_session"]


async def test_the_clock_times_each_statement_once_whichever_path_sends_it(db: Database) -> None:
    clock = StatementClock()
    clock.attach(db)
    with clock.measuring():
        for _ in range(2):  # a connection checked out again keeps one logger
            async with db.system() as conn:
                await conn.execute(text("CREATE TEMP TABLE clock_probe (v int) ON COMMIT DROP"))  # SQLAlchemy
                assert await write_driver.status(conn, "INSERT INTO clock_probe (v) VALUES (:v)", {"v": 1}) == 1
                await conn.execute(text("INSERT INTO clock_probe (v) VALUES (:v)"), [{"v": 2}, {"v": 3}])  # many
            await asyncio.sleep(0)  # (asyncpg reports on the loop's next turn)
    calls = {verb: sum(n for key, n in clock.calls.items() if key.startswith(verb)) for verb in ("CREATE", "INSERT")}
    assert calls == {"CREATE": 2, "INSERT": 4} and sum(clock.calls.values()) == 6  # no BEGIN or COMMIT
    assert all(s > 0 for s in clock.seconds.values())
