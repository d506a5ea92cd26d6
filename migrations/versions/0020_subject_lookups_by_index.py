"""A temporal question's subject lookups read the forest's subject and speaker indexes, not the forest.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27

Migration 0011 indexed ``lower(speaker)`` and ``lower(subject)`` by ``(tenant, forest)`` for the
known-subject test of temporal questions and the subject's facts. Under row-level security the
planner may use a condition as an index condition only when its functions are leakproof, and
``lower`` is not: a query of ``memforest_app`` read every fact of the forest (a bitmap of its
``(tenant, forest)`` b-tree, or a sequential scan of the whole table) and tested ``lower(...)`` on
each: 13 ms at 9.4K facts, growing with the forest, for every question that names someone (ADR
0029). The benchmarks' synthetic facts have no speaker or subject, so they never saw it.

Two ``SECURITY DEFINER`` functions run these reads as the owner, with the policy's tenant filter
written out (as the full-text functions of migrations 0013-0014 do), so the expression indexes
serve them:

- ``memforest_known_subjects(forest, names)``: those of ``names`` (lower case) that are a speaker
  or a fact subject of the forest, or the key of one of its entity trees (``rules.entity_key`` of
  its label: the trees' unique key serves it);
- ``memforest_subject_facts(forest, subject)``: the facts whose subject is ``subject``, or that have
  none and whose speaker is, with the columns the temporal read path reads (visibility is the
  caller's). Granted to ``memforest_app`` only.
"""

from __future__ import annotations

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
_KNOWN = "memforest_known_subjects"
_KNOWN_SIGNATURE = "(bigint, text[])"
_FACTS = "memforest_subject_facts"
_FACTS_SIGNATURE = "(bigint, text)"
_FACT_COLUMNS = (
    "x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, "
    "x.superseded_by, x.recorded_at, x.retracted_at"
)


def upgrade() -> None:
    op.execute(
        f"""
CREATE FUNCTION {_KNOWN}(p_forest bigint, p_names text[]) RETURNS SETOF text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
SELECT n.name FROM unnest(p_names) AS n(name)
WHERE EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = {_TENANT} AND x.forest_id = p_forest
              AND x.speaker IS NOT NULL AND lower(x.speaker) = n.name)
   OR EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = {_TENANT} AND x.forest_id = p_forest
              AND x.subject IS NOT NULL AND lower(x.subject) = n.name)
   OR EXISTS (SELECT 1 FROM trees tr WHERE tr.tenant_id = {_TENANT} AND tr.forest_id = p_forest
              AND tr.kind = 'entity' AND tr.key = n.name)
$fn$
"""
    )
    op.execute(
        f"""
CREATE FUNCTION {_FACTS}(p_forest bigint, p_subject text)
RETURNS TABLE (fact_id bigint, text text, speaker text, subject text, attribute text, value text,
               entities text[], valid_from timestamptz, valid_to timestamptz, superseded_by bigint,
               recorded_at timestamptz, retracted_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
SELECT {_FACT_COLUMNS} FROM facts x WHERE x.tenant_id = {_TENANT} AND x.forest_id = p_forest
AND x.subject IS NOT NULL AND lower(x.subject) = p_subject
UNION ALL
SELECT {_FACT_COLUMNS} FROM facts x WHERE x.tenant_id = {_TENANT} AND x.forest_id = p_forest
AND x.subject IS NULL AND x.speaker IS NOT NULL AND lower(x.speaker) = p_subject
$fn$
"""
    )
    for fn in (f"{_KNOWN}{_KNOWN_SIGNATURE}", f"{_FACTS}{_FACTS_SIGNATURE}"):
        op.execute(f"REVOKE ALL ON FUNCTION {fn} FROM PUBLIC")
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
            f"EXECUTE 'GRANT EXECUTE ON FUNCTION {fn} TO {APP_ROLE}'; END IF; END $$"
        )


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {_FACTS}{_FACTS_SIGNATURE}")
    op.execute(f"DROP FUNCTION IF EXISTS {_KNOWN}{_KNOWN_SIGNATURE}")
