"""The rule-based statement reader on labelled turns written without looking at the code (issue 48):
which states a user's turn states, and which turns state none (plans, wishes, suppositions, things
weighed or turned down, suggestions, denials, nostalgia, mentions, questions).

The file is JSON: ``{"statements": [{"id", "speaker", "text", "states": [{"holder", "kind",
"value", "event", "previous"}], "non_state"}]}``; a holder is ``self`` or a person's name or relation
word, an event ``start``, ``stop`` or ``ongoing``. A state counts as read when some candidate of the
turn that files a state (an attribute and a value, no plan, no leaving of the value: what the
temporal read path takes as holding; the write path files no slot for a statement in a mood) has
the gold value (equal, or one inside the other, ignoring case) and the gold holder; a ``stop`` says
a state ended, so it is scored as no state. A non-state turn is misread when any candidate files a
state. Each run is appended to the result file's ``history`` (the number of looks shows); with
``--held-out`` the per-turn misses stay out of the file and the output.

    python -m bench.statement_reader --statements bench/hand/sentences_S.json --name S
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.args import bench_parser, single_run
from bench.report import git_commit, machine_info, new_figure, publish, save_figure
from memforest.domain import Candidate, CellTurn, CellView, FactKind
from memforest.text.extractor import extract_cell
from memforest.text.mood import leaves

SAID_AT = datetime(2024, 5, 8, 13, 0, tzinfo=UTC)


def _parser() -> argparse.ArgumentParser:
    parser = bench_parser("statement_reader", __doc__)
    parser.add_argument("--statements", type=Path, required=True, help="the labelled turns (JSON, see above)")
    parser.add_argument("--name", required=True, help="the set's name; the result file is statement_reader_<name>.json")
    parser.add_argument("--held-out", action="store_true", help="keep per-turn misses out of the output and the file")
    return parser


# how a candidate is scored, recorded with each run: 3, a holder labelled by the speaker's relation
# ("my dad") is that relative as the reader names them ("Ana's dad"; 2 took it for no one); 2 (to
# 2026-12-06 20:30 UTC), a slot filed is a state whatever mood another
# clause of its text carries (the write path files no slot for a statement in a mood, and the read
# path takes every slot: "I started at X and I want to say hi" states X); 1 (to 2026-12-04 15:20 UTC),
# a mood anywhere in the text voided the slot
SCORER = 3


def _stated(c: Candidate) -> bool:
    """The candidate files a state that holds, as the temporal read path takes it: a slot and a
    value, no plan; one that leaves its value is that value's end."""
    if not (c.attribute and c.value) or c.kind is FactKind.PLAN:
        return False
    return not leaves(c.text, max(c.text.find(c.value), 0))


def _holder_is(subject: str | None, holder: str, speaker: str) -> bool:
    said = (subject or "").casefold()
    if holder == "self":
        return said == speaker.casefold()
    want = holder.casefold().removeprefix("my ")  # ("my dad": the speaker's dad, "Ana's dad" as read)
    return said == want or said.endswith(f"'s {want}") or said.endswith(f" {want}")


def _value_is(value: str | None, gold: str) -> bool:
    a, b = (value or "").casefold(), gold.casefold()
    return bool(a) and (a == b or a in b or b in a)


def score(statements: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Counts per slice and the misread turns."""
    counts: dict[str, dict[str, int]] = {}
    misses: list[dict[str, Any]] = []

    def tally(slice_: str, ok: bool) -> None:
        c = counts.setdefault(slice_, {"n": 0, "right": 0})
        c["n"] += 1
        c["right"] += int(ok)

    for s in statements:
        view = CellView("s", SAID_AT, (CellTurn(0, s["speaker"], s["text"], SAID_AT),))
        read = [c for c in extract_cell(view) if _stated(c)]
        got = [(c.subject, c.attribute, c.value) for c in read]
        held = [g for g in s["states"] if g["event"] != "stop"]
        if not held:
            ok = not read
            tally("non-state: all", ok)
            tally(f"non-state: {s.get('non_state') or 'stop'}", ok)
            if not ok:
                misses.append({"id": s["id"], "text": s["text"], "want": [], "got": got})
            continue
        for g in held:
            ok = any(_value_is(c.value, g["value"]) and _holder_is(c.subject, g["holder"], s["speaker"]) for c in read)
            tally("state: all", ok)
            tally("state: " + ("self" if g["holder"] == "self" else "other person"), ok)
            tally(f"state: one of {len(held)} in the turn", ok)
            if not ok:
                misses.append({"id": s["id"], "text": s["text"], "want": g, "got": got})
    return {k: {**v, "rate": round(v["right"] / v["n"], 4)} for k, v in sorted(counts.items())}, misses


def _history(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text()).get("history", [])) if path.exists() else []


def _plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, (ax,) = new_figure(1, width=8)
    slices = list(result["scores"])
    ax.barh(slices, [result["scores"][s]["rate"] for s in slices], color="#4c72b0")
    ax.set_xlim(0, 1)
    ax.set_xlabel("share read right")
    ax.set_title(f"statement reader: {result['set']}")
    return save_figure(fig, out_dir, name)


def _render(result: dict[str, Any], console: Console) -> None:
    table = Table(title=f"statement reader on {result['set']} ({len(result['history'])} runs recorded)")
    for col in ("slice", "n", "read right", "share"):
        table.add_column(col)
    for k, v in result["scores"].items():
        table.add_row(k, str(v["n"]), str(v["right"]), f"{v['rate']:.3f}")
    console.print(table)
    for m in result.get("misses", []):
        console.print(f"  {m['id']}: want {m['want']} got {m['got']} | {m['text'][:140]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    try:
        statements = json.loads(args.statements.read_text())["statements"]
    except (OSError, ValueError, KeyError) as exc:
        print(f"statement_reader: cannot read {args.statements}: {exc}", file=sys.stderr)
        return 2
    scores, misses = score(statements)
    name = f"statement_reader_{args.name}"
    entry = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit().get("commit"),
        "state_rate": scores["state: all"]["rate"],
        "non_state_rate": scores["non-state: all"]["rate"],
        "scorer": SCORER,
    }
    result: dict[str, Any] = {
        "bench": "statement_reader",
        "set": args.name,
        "held_out": args.held_out,
        "scores": scores,
        "machine": machine_info(),
        "history": [*_history(args.out / f"{name}.json"), entry],
    }
    if not args.held_out:
        result["misses"] = misses
    publish(args.out, name, result, _plot, _render, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
