"""Statements and transactions the database receives, attributed to the job that sent them.

The worker runs each job inside ``log_context(job_id=..., job_kind=...)``; a statement sent while
that context is set is counted for the job. Two hooks see every statement: SQLAlchemy's
``before_cursor_execute`` (statements run through SQLAlchemy: prepared by the driver, which does not
report them) and asyncpg's query logger (statements the store sends to the driver directly, inside
a transaction, and every ``BEGIN``/``COMMIT``/``ROLLBACK`` and pool pre-ping). A driver
``executemany`` reaches both; only the driver's report is counted.

Kinds: ``statements`` (every statement but transaction control, pings and the driver's own),
``transactions`` (``BEGIN``s), ``control`` (``COMMIT``/``ROLLBACK``/``SAVEPOINT``), ``pings``, and
``driver`` (asyncpg's type introspection: once per pooled connection and type, with ``jit``
switched off around it).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from memforest.db.engine import Database
from memforest.logs import current_context

_CONTROL = ("COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "END")


_DRIVER = ("SELECT current_setting('jit')", "WITH RECURSIVE typeinfo_tree", "SELECT set_config('jit'")
# characters of a statement enough to tell the driver's own (its words, however spaced, come first):
# a set-based statement of the write path runs to kilobytes, and it is classified at every send
_DRIVER_HEAD = 200


def statement_kind(sql: str) -> str:
    """One of the kinds the module doc names."""
    if " ".join(sql[:_DRIVER_HEAD].split()).startswith(_DRIVER):  # (the driver's own text spans lines)
        return "driver"
    head = sql.lstrip().split(None, 1)[0].upper().rstrip(";") if sql.strip() not in ("", ";") else ";"
    if head == ";":
        return "pings"
    if head in ("BEGIN", "START"):
        return "transactions"
    if head in _CONTROL:
        return "control"
    return "statements"


def engines_of(db: Database) -> list[AsyncEngine]:
    """Every engine of ``db`` (system, tenant and the side pool's), each once."""
    engines: list[AsyncEngine] = [db.engine, db.tenant_engine]
    if db.side_engine is not None:
        engines.append(db.side_engine)
    return list({id(e): e for e in engines}.values())


def watch_driver(engines: Iterable[AsyncEngine], logger: Callable[[Any], None]) -> None:
    """Add ``logger`` as asyncpg's query logger (it gets a ``LoggedQuery``) of every connection the
    engines make, and of those made before this at their next checkout (asyncpg keeps its loggers
    in a set: one per connection)."""

    def hook(dbapi_connection: Any, *_: Any) -> None:
        driver = getattr(dbapi_connection, "_connection", None)
        if driver is not None:
            driver.add_query_logger(logger)

    for engine in engines:
        event.listen(engine.sync_engine, "connect", hook)
        event.listen(engine.sync_engine.pool, "checkout", hook)


_SCOPE: ContextVar[str] = ContextVar("statement_count_scope", default="")


@contextmanager
def scope(name: str) -> Iterator[None]:
    """Statements sent by the block (and the tasks it starts) are also counted under ``name``
    (:meth:`StatementCounter.scoped`): a bench running several forests at once counts each apart."""
    token = _SCOPE.set(name)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def _forest_scope(ctx: dict[str, str]) -> str:
    """Outside :func:`scope`, the forest a statement's log context names: a job's forest id
    (``forest_id:N``, :func:`forest_id_scope`) or the forest name an accept runs under."""
    if "forest_id" in ctx:
        return forest_id_scope(ctx["forest_id"])
    return ctx.get("forest", "")


def forest_id_scope(forest_id: object) -> str:
    """The scope the statements of forest ``forest_id``'s jobs are counted under outside :func:`scope`."""
    return f"forest_id:{forest_id}"


@dataclass
class StatementCounter:
    """Counts per job id (and its kind); statements sent outside any job go under ``""``. Statements
    sent inside :func:`scope` are counted again in that scope's own counter."""

    by_job: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    job_kind: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, StatementCounter] = field(default_factory=dict)

    def install(self, db: Database) -> None:
        """Hook every engine of ``db`` (connections made before this are hooked at their next checkout)."""
        engines = engines_of(db)
        for engine in engines:
            event.listen(engine.sync_engine, "before_cursor_execute", self._on_cursor)
        watch_driver(engines, self._on_driver)

    def _count(self, sql: str) -> None:
        ctx = current_context()
        job, kind = ctx.get("job_id", ""), statement_kind(sql)
        name = _SCOPE.get() or _forest_scope(ctx)
        for counter in (self, self.scoped(name)) if name else (self,):
            if job and job not in counter.job_kind:
                counter.job_kind[job] = ctx.get("job_kind", "")
            counter.by_job[job][kind] += 1

    def scoped(self, name: str) -> StatementCounter:
        """The counts of statements sent inside ``scope(name)``."""
        return self.scopes.setdefault(name, StatementCounter())

    def _on_cursor(self, _conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any, many: bool) -> None:
        if not many:  # (an executemany reaches the driver's query logger too)
            self._count(statement)

    def _on_driver(self, record: Any) -> None:
        # (asyncpg runs the logger with call_soon, in a copy of the sending task's context)
        self._count(str(record.query))

    def merged(self, *names: str) -> StatementCounter:
        """The counts of the scopes ``names`` together (a forest's accepts and its jobs)."""
        out = StatementCounter()
        for name in names:
            part = self.scopes.get(name)
            if part is None:
                continue
            out.job_kind.update(part.job_kind)
            for job, counts in part.by_job.items():
                out.by_job[job].update(counts)
        return out

    def reset(self) -> None:
        self.by_job.clear()
        self.job_kind.clear()
        self.scopes.clear()

    def jobs_of_kind(self, kind: str) -> list[Counter[str]]:
        return [c for job, c in self.by_job.items() if job and self.job_kind.get(job) == kind]

    def total(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for c in self.by_job.values():
            out.update(c)
        return out


def distribution(values: list[int]) -> dict[str, float]:
    """Median, p90 (nearest rank), max, min and mean of ``values`` (zeros when empty)."""
    if not values:
        return {"n": 0, "median": 0, "p90": 0, "max": 0, "min": 0, "mean": 0.0}
    ordered = sorted(values)
    p90 = ordered[max(0, -(-9 * len(ordered) // 10) - 1)]
    return {
        "n": len(ordered),
        "median": statistics.median(ordered),
        "p90": p90,
        "max": ordered[-1],
        "min": ordered[0],
        "mean": round(statistics.fmean(ordered), 2),
    }


def summarise(counter: StatementCounter, sessions: int) -> dict[str, Any]:
    """Per ingest job (one session each): statements and transactions distributions; per refresh
    job the same; and everything sent (jobs, accepts, claims, refresh jobs) divided by ``sessions``."""
    ingest = counter.jobs_of_kind("ingest")
    refresh = counter.jobs_of_kind("refresh")
    total = counter.total()
    return {
        "per_ingest_job": {
            "statements": distribution([c["statements"] for c in ingest]),
            "transactions": distribution([c["transactions"] for c in ingest]),
            "pings": distribution([c["pings"] for c in ingest]),
        },
        "per_refresh_job": {
            "statements": distribution([c["statements"] for c in refresh]),
            "transactions": distribution([c["transactions"] for c in refresh]),
        },
        "refresh_jobs": len(refresh),
        "all_per_session": {k: round(total[k] / sessions, 2) if sessions else 0.0 for k in sorted(total)},
        "all": dict(sorted(total.items())),
    }
