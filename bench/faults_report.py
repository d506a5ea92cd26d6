"""Output of ``bench.faults``: the console tables and the PNG timeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.report import new_figure, save_figure


def render(result: dict[str, Any], console: Console) -> None:
    """The figures table, the answers by status, the violations and the verdict."""
    s, j, h = result["sessions"], result["jobs"], result["healthz"]
    table = Table(title=f"fault injection ({result['config']['model']})", show_header=False)
    rows = [
        ("load / drain", f"{result['load_s']:.0f}s / {result['drain_s']:.0f}s"),
        ("worker SIGKILLs / restarts of PostgreSQL", f"{result['kills']} / {result['db_restarts']}"),
        ("workers that exited on their own", str(result["worker_exits"])),
        ("model calls / injected failures", f"{result['model_server'].get('requests', '?')} / "
         f"{result['model_server'].get('injected_failures', {})}"),
        ("sessions acknowledged / in the database", f"{s['accepted']} / {s['in_db']}"),
        ("lost / duplicated sessions", f"{len(s['lost'])} / {len(s['duplicated'])}"),
        ("sessions whose job failed (with a reason)", str(len(s["failed_with_reason"]))),
        ("facts sourced from acknowledged sessions", str(s["facts_sourced"])),
        ("jobs total / stuck / failed / failed without reason",
         f"{j['total']} / {len(j['stuck'])} / {len(j['failed'])} / {len(j['failed_without_reason'])}"),
        ("most attempts of one job", str(j["max_attempts_seen"])),
        ("memforest check", ", ".join(f"{f}: {v}" for f, v in result["checks"].items())),
        ("5xx answers counted / restart 503s set apart (ADR 0049)",
         f"{result['server_errors']} / {result.get('restart_503s', 0)}"),
        ("transport errors", str(result["transport_errors"] or 0)),
        ("/healthz under load p50 / p95 / p99 / max",
         f"{h.get('p50_ms', '-')} / {h.get('p95_ms', '-')} / {h.get('p99_ms', '-')} / {h.get('max_ms', '-')} ms "
         f"({h.get('n', 0)} probes, {h['failed']} failed; target p99 < {result['healthz_target_ms']:.0f} ms: "
         f"{'met' if result['healthz_ok'] else 'NOT met'})"),
    ]  # fmt: skip
    rows += _attack_rows(result)
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)
    answers = Table(title="answers by request kind and status")
    answers.add_column("kind status")
    answers.add_column("count", justify="right")
    for k, v in result["requests"].items():
        answers.add_row(k, str(v))
    console.print(answers)
    for sample in result["server_error_samples"][:10]:
        console.print(f"[red]5xx[/red] t={sample['t']}s {sample['kind']} {sample['status']}: {sample['body'][:160]}")
    for sample in result.get("restart_503_samples", [])[:10]:
        when = f"sent t={sample.get('t_sent')}s answered t={sample['t']}s"
        console.print(f"restart 503 (set apart) {when} {sample['kind']}")
    for name, info in result["process_logs"].items():
        if info["tracebacks"]:
            console.print(f"[yellow]{name}[/yellow] ({info['starts']} starts): {info['tracebacks']} tracebacks")
            for exc, n in info["exceptions"].items():
                console.print(f"    {n} x {exc}")
    for v in result["violations"][:30]:
        console.print(f"[red]violation[/red] {v}")
    console.print(
        "[green]PASS[/green]" if result["pass"] else f"[red]FAIL[/red] ({len(result['violations'])} violations)"
    )


def _attack_rows(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The victim's windows, the API process's RSS and event loop, and what the attacks got."""
    if "victim" not in result:
        return []
    v, rss, loop, a = result["victim"], result.get("api_rss", {}), result.get("event_loop", {}), result["attacks"]
    rows = [
        ("victim ingest p95 calm / attacked (ratio, gate 2)",
         f"{v['calm']['ingest_p95_s']} / {v['attacked']['ingest_p95_s']} s ({v['ingest_p95_s_ratio']}; "
         f"n {v['calm']['ingest_n']} / {v['attacked']['ingest_n']})"),
        ("victim webhook delay p95 calm / attacked (ratio, gate 2)",
         f"{v['calm']['webhook_delay_p95_s']} / {v['attacked']['webhook_delay_p95_s']} s "
         f"({v['webhook_delay_p95_s_ratio']}; n {v['calm']['webhook_n']} / {v['attacked']['webhook_n']})"),
        ("API RSS idle / peak (calm, attacked, chaos)",
         f"{rss.get('idle_mb')} / {rss.get('peak_mb')} MB ({rss.get('peak_calm_mb')}, {rss.get('peak_attacked_mb')}, "
         f"{rss.get('peak_chaos_and_attacked_mb')})"),
    ]  # fmt: skip
    for name, w in loop.items():
        rows.append((f"event loop {name}: CPU / wall in callbacks / longest",
                     f"{w['cpu_s']} / {w['busy_s']} s of {w['window_s']} s / {w['longest_callback_s']} s"))  # fmt: skip
    crafted = a["crafted_queries"]
    if crafted:
        worst = max(crafted, key=lambda r: r.get("cpu_s", 0.0))
        rows.append(("crafted 20 KB queries over 20 forests: n, statuses, worst loop CPU in its window",
                     f"{len(crafted)}, {sorted({r['status'] for r in crafted})}, {worst.get('cpu_s')} s "
                     f"({worst['question']}, {worst['seconds']} s)"))  # fmt: skip
    rows.append(("attacks sent", ", ".join(f"{k} {n}" for k, n in a["sent"].items())))
    rows.append(
        ("refused webhook ports", ", ".join(f"{u.rsplit(':', 1)[1]} {st}" for u, st in a["refused_ports"].items()))
    )
    f = a["address_filter"]
    if f:
        rows.append(("address filter (NAT64, 6to4, IPv4-compatible, mapped, decimal; rebinding)",
                     f"refused {sum(f['translated_forms_refused'].values())} of {len(f['translated_forms_refused'])}; "
                     f"rebinding reached loopback: {f['rebinding_reached_loopback']}"))  # fmt: skip
    rows.append(("hostile receivers' connections", str(a["hostile_receiver_connections"])))
    return rows


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    """Timeline: /healthz latency per probe, with kills, database restarts and 5xx answers marked."""
    fig, (ax,) = new_figure(1, width=12.0, height=4.5)
    samples = result["healthz_samples"]
    if samples:
        ok = [(t, ms) for t, ms, st in samples if st == 200]
        bad = [(t, max(ms, 1.0)) for t, ms, st in samples if st != 200]
        if ok:
            ax.scatter(*zip(*ok, strict=True), s=3, color="tab:blue", label="/healthz 200")
        if bad:
            ax.scatter(*zip(*bad, strict=True), s=12, color="black", marker="x", label="/healthz failed")
    ax.axhline(result["healthz_target_ms"], color="gray", linestyle="--", linewidth=1, label="p99 target")
    marks = {"kill": ("tab:red", "worker SIGKILL"), "db_restart_begin": ("tab:purple", "PostgreSQL restart"),
             "worker_exited": ("tab:orange", "worker exited itself"),
             "attack_begin": ("tab:green", "the attacker starts")}  # fmt: skip
    seen: set[str] = set()
    for e in result["events"]:
        if e["kind"] in marks:
            color, label = marks[e["kind"]]
            ax.axvline(e["t"], color=color, alpha=0.6, linewidth=1, label=None if label in seen else label)
            seen.add(label)
    for i, s in enumerate(result["server_error_samples"]):
        ax.axvline(s["t"], color="gold", alpha=0.8, linewidth=2, label="5xx answer (counted)" if i == 0 else None)
    for i, s in enumerate(result.get("restart_503_samples", [])):
        ax.axvline(s["t"], color="silver", alpha=0.8, linewidth=1, label="restart 503 (set apart)" if i == 0 else None)
    ax.set_yscale("log")
    ax.set_xlabel("seconds since start")
    ax.set_ylabel("/healthz latency (ms, log)")
    h = result["healthz"]
    ax.set_title(
        f"faults: {result['kills']} kills, {result['db_restarts']} DB restarts, {result['server_errors']} 5xx, "
        f"/healthz p99 {h.get('p99_ms', '-')} ms under load"
    )
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    return save_figure(fig, out_dir, name)
