"""How ``bench.faults`` judges its 5xx answers (ADR 0049): a 503 with ``Retry-After`` saying the
database is unavailable, for a request in flight while the bench restarted PostgreSQL, is set
apart; every other 5xx counts against the gate. And the victim gate needs enough samples."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench.faults import classify_5xx, restart_windows
from bench.faults_attacks import MIN_VICTIM_SAMPLES, AttackRun, Receivers, attack_violations

UNAVAILABLE = '{"status":503,"detail":"the database is unavailable; retry shortly"}'
BUSY = '{"status":503,"detail":"the database is busy; retry shortly"}'
EVENTS = [
    {"t": 10.0, "kind": "load_begin"},
    {"t": 50.0, "kind": "db_restart_begin"},
    {"t": 52.0, "kind": "db_restart_end", "seconds": 2.0},
    {"t": 80.0, "kind": "db_restart_begin"},
    {"t": 81.5, "kind": "db_restart_failed", "error": "timeout"},
]


def _sample(
    sent: float, answered: float, *, status: int = 503, body: str = UNAVAILABLE, retry: str | None = "2"
) -> Any:
    return {"t_sent": sent, "t": answered, "kind": "ingest", "status": status, "retry_after": retry, "body": body}


def test_restart_windows_pair_each_begin_with_its_end() -> None:
    assert restart_windows(EVENTS) == [(50.0, 52.0), (80.0, 81.5)]


def test_only_an_honest_503_of_a_request_in_flight_during_a_restart_is_set_apart() -> None:
    windows = restart_windows(EVENTS)
    excused_ones = [
        _sample(49.0, 51.0),  # sent before, answered during
        _sample(45.0, 57.0),  # in flight across the whole restart, answered after (its retry cut too)
        _sample(81.0, 83.0),  # during the failed restart
    ]
    counted_ones = [
        _sample(53.0, 56.0),  # sent after the restart ended: the service had recovered
        _sample(20.0, 30.0),  # no restart near it
        _sample(49.0, 51.0, body=BUSY),  # a busy database is no restart's doing
        _sample(49.0, 51.0, retry=None),  # no Retry-After: the client is not told what to do
        _sample(49.0, 51.0, status=500, body='{"status":500}'),  # never set apart
    ]
    counted, excused = classify_5xx(excused_ones + counted_ones, windows)
    assert excused == excused_ones
    assert counted == counted_ones


def test_a_victim_window_with_too_few_samples_is_no_pass() -> None:
    run = AttackRun(Receivers(), [])
    few = {"ingest_n": MIN_VICTIM_SAMPLES - 1, "webhook_n": 20}
    enough = {"ingest_n": MIN_VICTIM_SAMPLES, "webhook_n": 20}
    phases = {"calm": few, "attacked": enough, "ingest_p95_s_ratio": 1.0, "webhook_delay_p95_s_ratio": 1.0}
    assert attack_violations(run, Counter(), phases) == [
        f"victim ingest_p95_s_ratio: not measured ({MIN_VICTIM_SAMPLES - 1} samples in a window, "
        f"{MIN_VICTIM_SAMPLES} needed)"
    ]
    phases |= {"calm": enough, "webhook_delay_p95_s_ratio": 2.5}
    assert attack_violations(run, Counter(), phases) == ["victim webhook_delay_p95_s_ratio 2.5 > 2 under attack"]
    assert attack_violations(
        run, Counter({"over-quota-forest 503": 1}), phases | {"webhook_delay_p95_s_ratio": 1.0}
    ) == ["over-quota-forest 503: 1 answers (expected [409, 429])"]
