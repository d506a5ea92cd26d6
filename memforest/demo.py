"""``make demo``: start the embedded database, ingest the bundled sample conversation, verify it,
and ask it a few questions."""

from __future__ import annotations

import sys

from memforest.cli import main
from memforest.formats import DEMO_PATH

QUESTIONS = (
    "Where did Bob live before Miami?",
    "What is Alice's dog called?",
    "Where does Alice work now?",
)


def run() -> int:
    """The demo steps; stops at the first failing one."""
    steps: list[list[str]] = [
        ["db", "info"],
        ["ingest", str(DEMO_PATH), "--format", "native", "--forest", "demo"],
        ["check", "--forest", "demo"],
        ["stats", "--forest", "demo"],
    ]
    steps += [["query", "--forest", "demo", q] for q in QUESTIONS]
    for argv in steps:
        print(f"\n$ memforest {' '.join(argv)}", flush=True)
        code = main(argv)
        if code != 0:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(run())
