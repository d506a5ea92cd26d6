"""The reader's first-use work, done where the text processes' fork server imports it
(``processes.PRELOADED``): the literal gates of its pattern families (``literal_gate``), which
take a parse of every pattern, are read there once, and every worker forked from the server starts
with them instead of parsing them at its first sentence. Importing this module does that work."""

from __future__ import annotations

from memforest.text.changes import generic_gates, named_gates
from memforest.text.states import cue_gates

__all__ = ["warm"]


def warm() -> None:
    """Read and keep the literal gates of the reader's pattern families (each is kept once read)."""
    named_gates()
    generic_gates()
    cue_gates()


warm()
