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

from bench.args import bench_parser, single_run
from bench.reader_scores import Tally, publish_scores
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
    tally = Tally()
    misses: list[dict[str, Any]] = []
    for s in statements:
        view = CellView("s", SAID_AT, (CellTurn(0, s["speaker"], s["text"], SAID_AT),))
        read = [c for c in extract_cell(view) if _stated(c)]
        got = [(c.subject, c.attribute, c.value) for c in read]
        held = [g for g in s["states"] if g["event"] != "stop"]
        if not held:
            ok = not read
            tally.add("non-state: all", ok)
            tally.add(f"non-state: {s.get('non_state') or 'stop'}", ok)
            if not ok:
                misses.append({"id": s["id"], "text": s["text"], "want": [], "got": got})
            continue
        for g in held:
            ok = any(_value_is(c.value, g["value"]) and _holder_is(c.subject, g["holder"], s["speaker"]) for c in read)
            tally.add("state: all", ok)
            tally.add("state: " + ("self" if g["holder"] == "self" else "other person"), ok)
            tally.add(f"state: one of {len(held)} in the turn", ok)
            if not ok:
                misses.append({"id": s["id"], "text": s["text"], "want": g, "got": got})
    return tally.scores(), misses


def _miss_line(m: dict[str, Any]) -> str:
    return f"  {m['id']}: want {m['want']} got {m['got']} | {m['text'][:140]}"


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
    look = {
        "state_rate": scores["state: all"]["rate"],
        "non_state_rate": scores["non-state: all"]["rate"],
        "scorer": SCORER,
    }
    publish_scores("statement reader", args, argv, (scores, misses), look, _miss_line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
