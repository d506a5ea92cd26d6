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
that have a slot. A slot that then holds two chains is threaded as one: a state that no later state
superseded is superseded by the slot's next state in time with another value (its ``valid_to`` the
successor's start), as a commit links a new fact to its neighbours. The table of spellings is the
code's own at this revision, written out here so that the migration keeps meaning what it meant
when the code's table grows.

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

_RENAMED = "CREATE TEMPORARY TABLE renamed_slots (tenant_id uuid, forest_id bigint, subject text, attribute text)"
_RENAME = """
WITH moved AS (
    UPDATE facts f SET attribute = left(f.attribute, length(f.attribute) - length(s.other)) || s.one
    FROM (VALUES {pairs}) AS s(other, one)
    WHERE f.attribute IS NOT NULL
      AND (f.attribute = s.other OR right(f.attribute, length(s.other) + 1) = '_' || s.other)
    RETURNING f.tenant_id, f.forest_id, f.subject, f.attribute
)
INSERT INTO renamed_slots SELECT DISTINCT tenant_id, forest_id, subject, attribute FROM moved
"""
# In a slot that now holds two chains (one told as "physiotherapist", one as "physio"), a state whose
# chain ended there (no successor) is superseded by the next state of the slot in time that names
# another value, as a new fact's commit links its neighbours; links already made stay.
_LINKS = """
CREATE TEMPORARY TABLE slot_links AS
SELECT tenant_id, p, n, nvf FROM (
    SELECT x.tenant_id, x.fact_id AS p, x.superseded_by AS p_next, lower(x.value) AS pv,
           lead(x.fact_id) OVER w AS n, lead(lower(x.value)) OVER w AS nv, lead(x.valid_from) OVER w AS nvf
    FROM facts x JOIN renamed_slots r ON r.tenant_id = x.tenant_id AND r.forest_id = x.forest_id
        AND r.subject = x.subject AND r.attribute = x.attribute
    WHERE x.retracted_at IS NULL AND x.value IS NOT NULL
    WINDOW w AS (PARTITION BY x.tenant_id, x.forest_id, x.subject, x.attribute ORDER BY x.valid_from, x.fact_id)
) z
WHERE n IS NOT NULL AND p_next IS NULL AND pv <> nv
"""
_LINK_EARLIER = """
UPDATE facts x SET superseded_by = l.n,
    valid_to = CASE WHEN x.valid_to IS NULL OR x.valid_to > l.nvf THEN l.nvf ELSE x.valid_to END
FROM slot_links l WHERE x.tenant_id = l.tenant_id AND x.fact_id = l.p
"""
_LINK_LATER = """
UPDATE facts x SET supersedes = l.p
FROM slot_links l WHERE x.tenant_id = l.tenant_id AND x.fact_id = l.n AND x.supersedes IS NULL
"""


def upgrade() -> None:
    pairs = ", ".join(f"('{other}', '{one}')" for other, one in _SPELLINGS)
    op.execute(_RENAMED)
    op.execute(_RENAME.format(pairs=pairs))
    op.execute(_LINKS)
    op.execute(_LINK_EARLIER)
    op.execute(_LINK_LATER)
    op.execute("DROP TABLE slot_links, renamed_slots")


def downgrade() -> None:
    """Nothing to undo (see the module doc)."""
