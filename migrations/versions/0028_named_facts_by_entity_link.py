"""A person who is no speaker of the forest: the speakers' slotless facts that name them, read
through the entity links by index.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-29

A speaker's words about another person ("..., my sister's knees gave out") are filed as the
speaker's slotless fact, with the person among its entities. The temporal read path of a question
about that person reads their facts by subject (``memforest_subject_facts``); the speaker's words
about them are linked to their entity (``entity_facts``, written at ingest) but have neither their
subject nor their speaker. ``memforest_named_facts(forest, key, limit)`` reads them: the entity by
its unique key (``uq_entities_key``), its newest ``limit`` links (``pk_entity_facts`` read backwards inside a lateral join, so the
read stops at ``limit`` however many links the person has),
each fact by ``pk_facts``; only the slotless facts with no subject, and nothing for an entity that
is a speaker (whose own words are theirs already). It runs as the owner with the policy's tenant
filter written out, as the subject lookups of migration 0020 do, so the plan is the same whatever
the caller's row-level security. Granted to ``memforest_app`` only. No new index: the three reads
are primary or unique keys.
"""

from __future__ import annotations

from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
_NAMED = "memforest_named_facts"
_SIGNATURE = "(bigint, text, integer)"
_FACT_COLUMNS = (
    "x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, "
    "x.superseded_by, x.recorded_at, x.retracted_at"
)


def upgrade() -> None:
    op.execute(
        f"""
CREATE FUNCTION {_NAMED}(p_forest bigint, p_key text, p_limit integer)
RETURNS TABLE (fact_id bigint, text text, speaker text, subject text, attribute text, value text,
               entities text[], valid_from timestamptz, valid_to timestamptz, superseded_by bigint,
               recorded_at timestamptz, retracted_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
SELECT {_FACT_COLUMNS} FROM entities e
CROSS JOIN LATERAL (
  SELECT ef.fact_id FROM entity_facts ef WHERE ef.tenant_id = e.tenant_id AND ef.entity_id = e.entity_id
  ORDER BY ef.fact_id DESC LIMIT p_limit
) l JOIN facts x ON x.tenant_id = {_TENANT} AND x.fact_id = l.fact_id
WHERE e.tenant_id = {_TENANT} AND e.forest_id = p_forest AND e.key = p_key AND NOT e.is_speaker
AND x.forest_id = p_forest AND x.subject IS NULL AND x.attribute IS NULL
AND EXISTS (SELECT 1 FROM facts s WHERE s.tenant_id = {_TENANT} AND s.forest_id = p_forest
            AND s.subject IS NOT NULL AND lower(s.subject) = p_key)
$fn$
"""
    )
    # pg_temp last in the stored path, as migration 0021 made it for every definer function
    op.execute(
        f"DO $$ BEGIN EXECUTE format('ALTER FUNCTION {_NAMED}{_SIGNATURE} SET search_path = %s', "
        "current_setting('search_path') || ', pg_temp'); END $$"
    )
    op.execute(f"REVOKE ALL ON FUNCTION {_NAMED}{_SIGNATURE} FROM PUBLIC")
    op.execute(
        f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
        f"EXECUTE 'GRANT EXECUTE ON FUNCTION {_NAMED}{_SIGNATURE} TO {APP_ROLE}'; END IF; END $$"
    )


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {_NAMED}{_SIGNATURE}")
