"""The temporal question reader on labelled questions written without looking at the code (issue 48,
items 2 and 4): does the read path read what a question asks (its operator, the time or the state
it names, whose state and which kind of thing) before any memory is searched?

The file is JSON: ``{"held_out", "about", "questions": [{"id", "speaker", "now", "question",
"operator", "subject", "kind", "anchor", "window", "during"}]}``.
- ``operator``: one of now, as_of, during, before, after, when, how_long, first, previous;
- ``subject``: the speaker's name for a first-person question, "<Speaker>'s <relation>" for a
  relative named by relation only, else the person's name;
- ``window``: the span an as_of question names ([start, end] dates);
- ``during``: the value of a "back when ..." clause;
- ``anchor``: the value a before / after / when / how_long question hangs on.

Each question is read as a query reads it (``retrieval.question.Question.parse``, asked at noon UTC
of its ``now`` by its ``speaker``) and scored field by field:

* operator: the parse's (an as_of with a clause's value is ``during``; the latest but ``back``
  states is ``previous``, the latest itself ``now``);
* time: an as_of question's point falls in the labelled window (a day either side); a during
  question's clause value is the labelled one (one inside the other, ignoring case);
* subject: the labelled subject is among the names the parse offers as subjects, and no relative
  ("Ana's sister") stands before it unless it is that relative (the forest then decides among the
  rest: a question alone cannot say which names are people it knows);
* kind: the labelled kind's slot is the parse's attribute, or its own slot key (``noun_own``), or
  the slot of its last word; not scored where a before / after / when / how_long question names
  its anchor (the plan finds that value's chain by the value: "how long was I with Pellow Gym?");
* anchor: the labelled anchor is the parse's anchor, or one of its names, or a time the parse read.

A question is right when every field it labels is. Each run is appended to the result file's
``history`` (the number of looks shows); with ``--held-out`` the per-question misses stay out of
the file and the output.

    python -m bench.question_reader --questions FILE --name NAME [--held-out]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.args import bench_parser, single_run
from bench.reader_scores import Tally, publish_scores
from memforest.retrieval.question import Question
from memforest.retrieval.temporal.asked import slot_of
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.text.changes import slot_key

FIELDS = ("operator", "time", "subject", "kind", "anchor")
_ANCHORED = ("before", "after", "when", "how_long")
_SLACK = timedelta(days=1)


def _parser() -> argparse.ArgumentParser:
    parser = bench_parser("question_reader", __doc__)
    parser.add_argument("--questions", type=Path, required=True, help="the labelled questions (JSON, see above)")
    parser.add_argument("--name", required=True, help="the set's name; the result file is question_reader_<name>.json")
    parser.add_argument(
        "--held-out", action="store_true", help="keep per-question misses out of the output and the file"
    )
    return parser


def read(item: dict[str, Any]) -> TemporalQuestion:
    """The temporal parse of a labelled question, as a query made at noon of its ``now`` reads it."""
    now = datetime.fromisoformat(item["now"]).replace(hour=12, tzinfo=UTC)
    return Question.parse(item["question"], now=now, has_as_of=False, speaker=item["speaker"]).temporal


def operator_of(tq: TemporalQuestion) -> str:
    """The parse's operator in the labels' words."""
    if tq.operator == "as_of" and tq.during:
        return "during"
    if tq.operator == "latest":
        return "previous" if tq.back else "now"
    return tq.operator or "none"


def _same(a: str | None, b: str | None) -> bool:
    x, y = (a or "").casefold().strip(), (b or "").casefold().strip()
    return bool(x) and bool(y) and (x == y or x in y or y in x)


def _in_window(at: datetime | None, window: Sequence[str]) -> bool:
    if at is None:
        return False
    start = datetime.fromisoformat(window[0]).replace(tzinfo=UTC) - _SLACK
    end = datetime.fromisoformat(window[1]).replace(tzinfo=UTC) + timedelta(days=1) + _SLACK
    return start <= at <= end


def _subject_right(tq: TemporalQuestion, subject: str) -> bool:
    names = [n.casefold() for n in tq.names]
    want = subject.casefold()
    if want not in names:
        return False
    relatives = [n for n in names if "'s " in n]
    return not relatives or want == relatives[0]


def _kind_right(tq: TemporalQuestion, kind: str) -> bool:
    last = kind.split()[-1] if kind.split() else kind
    return tq.attribute is not None and (
        tq.attribute in (slot_of(kind), slot_of(last)) or tq.noun_own == slot_key(kind)
    )


def _anchor_right(tq: TemporalQuestion, anchor: str) -> bool:
    return _same(tq.anchor, anchor) or any(_same(n, anchor) for n in tq.names) or tq.at is not None


def fields(item: dict[str, Any], tq: TemporalQuestion) -> dict[str, bool]:
    """Whether each field the question labels was read right (fields it does not label are left out)."""
    out = {"operator": operator_of(tq) == item["operator"], "subject": _subject_right(tq, item["subject"])}
    if item.get("kind") and not (item["operator"] in _ANCHORED and item.get("anchor")):
        out["kind"] = _kind_right(tq, item["kind"])
    if item["operator"] == "as_of" and item.get("window"):
        out["time"] = _in_window(tq.at, item["window"])
    if item["operator"] == "during" and item.get("during"):
        out["time"] = _same(tq.during, item["during"])
    if item["operator"] in _ANCHORED and item.get("anchor"):
        out["anchor"] = _anchor_right(tq, item["anchor"])
    return out


def score(items: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Counts per field and per operator, and the misread questions."""
    tally = Tally()
    misses: list[dict[str, Any]] = []
    for item in items:
        tq = read(item)
        got = fields(item, tq)
        ok = all(got.values())
        tally.add("all", ok)
        tally.add(f"operator: {item['operator']}", ok)
        tally.add("subject: " + _subject_kind(item), ok)
        for name, right in got.items():
            tally.add(f"field: {name}", right)
        if not ok:
            misses.append({
                "id": item["id"], "question": item["question"], "wrong": [k for k, v in got.items() if not v],
                "read": {"operator": operator_of(tq), "attribute": tq.attribute, "noun_own": tq.noun_own,
                         "names": list(tq.names), "anchor": tq.anchor, "at": tq.at.isoformat() if tq.at else None,
                         "during": tq.during},
            })  # fmt: skip
    return tally.scores(), misses


def _subject_kind(item: dict[str, Any]) -> str:
    subject = item["subject"]
    if subject.casefold() == item["speaker"].casefold():
        return "self"
    return "relation" if "'s " in subject else "named"


def _miss_line(m: dict[str, Any]) -> str:
    return f"  {m['id']}: wrong {m['wrong']} read {m['read']} | {m['question'][:140]}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    try:
        items = json.loads(args.questions.read_text())["questions"]
        scores, misses = score(items)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"question_reader: cannot read {args.questions}: {exc}", file=sys.stderr)
        return 2
    look = {
        "rate": scores["all"]["rate"],
        **{f: scores[f"field: {f}"]["rate"] for f in FIELDS if f"field: {f}" in scores},
    }
    publish_scores("question reader", args, argv, (scores, misses), look, _miss_line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
