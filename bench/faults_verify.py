"""The verdict of a fault-injection run (``bench.faults``), read from the database after the drain:
jobs (none stuck, every failure with a reason) and every acknowledged session in its forest exactly
once, complete (turns stored, every cell extracted and placed once, facts sourced from it), plus
``memforest check`` of every forest.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text

from memforest.db.engine import Database

_JOBS = "SELECT job_id::text AS job_id, kind, state, attempts, errors FROM jobs"

_OPEN_JOBS = "SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')"

_SESSIONS = """
SELECT t.name AS tenant, f.name AS forest, s.external_id, s.n_turns,
  (SELECT count(*) FROM turns u WHERE u.tenant_id = s.tenant_id AND u.session_id = s.session_id) AS turns,
  (SELECT count(*) FROM cells c WHERE c.tenant_id = s.tenant_id AND c.session_id = s.session_id) AS cells,
  (SELECT count(*) FROM cells c WHERE c.tenant_id = s.tenant_id AND c.session_id = s.session_id
     AND c.extracted_at IS NOT NULL) AS extracted,
  (SELECT count(*) FROM placements p JOIN cells c ON c.tenant_id = p.tenant_id AND c.cell_id = p.source_id
     JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id
     WHERE p.tenant_id = s.tenant_id AND p.source_kind = 'cell' AND tr.kind = 'session'
     AND c.session_id = s.session_id) AS cell_placements,
  (SELECT count(DISTINCT fs.fact_id) FROM fact_sources fs WHERE fs.tenant_id = s.tenant_id
     AND fs.session_id = s.session_id) AS facts
FROM sessions s JOIN forests f ON f.tenant_id = s.tenant_id AND f.forest_id = s.forest_id
JOIN tenants t ON t.tenant_id = s.tenant_id
"""


async def wait_drained(db: Database, budget_s: float, poll_s: float = 1.0) -> float:
    """Wait (at most ``budget_s``) until no job is queued or running; seconds waited."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < budget_s:
        async with db.system() as conn:
            open_jobs = int((await conn.execute(text(_OPEN_JOBS))).scalar_one())
        if open_jobs == 0:
            break
        await asyncio.sleep(poll_s)
    return round(time.monotonic() - t0, 3)


def _reason(errors: Any) -> str:
    if isinstance(errors, list) and errors:
        first = errors[0]
        return str(first.get("error", first) if isinstance(first, dict) else first)[:300]
    return ""


async def verify_jobs(db: Database) -> dict[str, Any]:
    """Every job by final state; stuck ones (queued/running) and failures without a reason."""
    async with db.system() as conn:
        rows = [dict(r._mapping) for r in await conn.execute(text(_JOBS))]
    states = Counter(f"{r['kind']} {r['state']}" for r in rows)
    stuck = [
        {"job_id": r["job_id"], "kind": r["kind"], "state": r["state"]}
        for r in rows
        if r["state"] in ("queued", "running")
    ]
    failed = [
        {"job_id": r["job_id"], "kind": r["kind"], "attempts": r["attempts"], "reason": _reason(r["errors"])}
        for r in rows
        if r["state"] == "failed"
    ]
    return {
        "total": len(rows),
        "by_kind_state": dict(sorted(states.items())),
        "max_attempts_seen": max((int(r["attempts"]) for r in rows), default=0),
        "stuck": stuck,
        "failed": failed,
        "failed_without_reason": [f for f in failed if not f["reason"]],
        "state_of": {r["job_id"]: r["state"] for r in rows},
    }


def _problems(row: dict[str, Any] | None, expected_turns: int, job_state: str | None) -> list[str]:
    if row is None:
        return ["not in the forest"]
    out = []
    if int(row["n_turns"]) != expected_turns or int(row["turns"]) != expected_turns:
        out.append(f"{row['turns']} turns stored of {expected_turns}")
    if job_state == "succeeded":
        if int(row["extracted"]) != int(row["cells"]):
            out.append(f"{int(row['cells']) - int(row['extracted'])} of {row['cells']} cells not extracted")
        if int(row["cell_placements"]) != int(row["cells"]):
            out.append(f"{row['cell_placements']} session-tree placements for {row['cells']} cells")
    return out


async def verify_sessions(
    db: Database, accepted: dict[str, dict[str, Any]], job_state: dict[str, str]
) -> dict[str, Any]:
    """Each acknowledged session: once in its forest, complete when its job succeeded."""
    async with db.system() as conn:
        rows = [dict(r._mapping) for r in await conn.execute(text(_SESSIONS))]
    by_key: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_key.setdefault(f"{r['tenant']}/{r['forest']}/{r['external_id']}", []).append(r)
    lost, duplicated, incomplete_failed = [], [], []
    facts = 0
    for key, info in sorted(accepted.items()):
        found = by_key.get(key, [])
        if len(found) > 1:
            duplicated.append({"session": key, "copies": len(found)})
        state = job_state.get(str(info.get("job_id")))
        problems = _problems(found[0] if found else None, int(info["turns"]), state)
        facts += int(found[0]["facts"]) if found else 0
        if problems and state == "failed":
            incomplete_failed.append({"session": key, "job_state": state, "problems": problems})
        elif problems:
            lost.append({"session": key, "job_state": state, "problems": problems})
    unacknowledged = sorted(set(by_key) - set(accepted))
    return {
        "accepted": len(accepted),
        "in_db": len(rows),
        "facts_sourced": facts,
        "lost": lost,
        "duplicated": duplicated,
        "failed_with_reason": incomplete_failed,
        "present_but_unacknowledged": unacknowledged,
    }


async def check_forests(run_check: Any, forests: Sequence[tuple[str, str]]) -> dict[str, str]:
    """``memforest check`` of each (tenant, forest), side by side: "ok" or its one-line error."""
    runs = [asyncio.to_thread(run_check, "check", "--forest", forest, "--tenant", tenant) for tenant, forest in forests]
    out = {}
    for (tenant, forest), done in zip(forests, await asyncio.gather(*runs), strict=True):
        line = (done.stdout.strip() or done.stderr.strip()).splitlines()
        out[f"{tenant}/{forest}"] = "ok" if done.returncode == 0 else (line[-1] if line else f"exit {done.returncode}")
    return out
