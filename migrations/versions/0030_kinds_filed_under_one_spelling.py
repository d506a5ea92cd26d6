"""A fact filed under another spelling of a kind moves to the kind's one slot (ADR 0153).

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07

Readers now file a kind's other spellings under one slot word (``memforest.text.kind_spellings``):
"physiotherapist" as ``physio``, "GP" as ``doctor``, "roommate" and "housemate" as ``flatmate``,
and so on; the read path asks for that slot. Facts stored before were filed under the word their
sentence used, so a chain begun as "my physiotherapist" would stay apart from its sequel "my physio"
and from every question. This migration renames the slot of every such fact whose slot ends in
another spelling (``physiotherapist``, ``sports_physiotherapist``), in one statement over the facts
that have a slot. The table is the code's own at this revision, written out here so that the
migration keeps meaning what it meant when the code's table grows.

A downgrade changes nothing: the word each fact was filed under before is not kept, and the slots
this one writes are ones the earlier code also wrote (role-named facts were filed so already).
"""

from __future__ import annotations

from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

# (other spelling, slot word), as ``kind_spellings.ONE_SPELLING`` holds them at this revision
_SPELLINGS = (
    ("physiotherapist", "physio"),
    ("gp", "doctor"),
    ("counselor", "counsellor"),
    ("landlady", "landlord"),
    ("roommate", "flatmate"),
    ("housemate", "flatmate"),
    ("veterinarian", "vet"),
    ("optometrist", "optician"),
)

_RENAME = """
UPDATE facts f SET attribute = left(f.attribute, length(f.attribute) - length(s.other)) || s.one
FROM (VALUES {pairs}) AS s(other, one)
WHERE f.attribute IS NOT NULL AND (f.attribute = s.other OR right(f.attribute, length(s.other) + 1) = '_' || s.other)
"""


def upgrade() -> None:
    pairs = ", ".join(f"('{other}', '{one}')" for other, one in _SPELLINGS)
    op.execute(_RENAME.format(pairs=pairs))


def downgrade() -> None:
    """Nothing to undo (see the module doc)."""
