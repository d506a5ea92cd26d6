"""MemForest's SECURITY DEFINER functions search the session's temporary schema last.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28

The functions of migrations 0008, 0011, 0013, 0014 and 0020 run as their owner and were created
with ``SET search_path FROM CURRENT``: the migration session's path (``"$user", public``), which
does not name ``pg_temp``. PostgreSQL then searches the caller's temporary schema *first* for
tables, and ``memforest_app`` may create temporary tables (the database grants TEMP to PUBLIC): a
temporary ``facts`` or ``trees`` would stand in for the real one inside the owner's function.
Nothing of another tenant leaks that way (the function would read the caller's own table), but the
documented rule for such functions is to put ``pg_temp`` last (ADR 0030). Each function keeps the
path it was created with, with ``pg_temp`` appended; functions and operators are unaffected (the
temporary schema is never searched for them).
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

# every SECURITY DEFINER function of MemForest in the migration's schema, with its stored path
_DEFINERS = r"""
    SELECT p.oid::regprocedure AS signature,
           (SELECT substr(c, length('search_path=') + 1) FROM unnest(p.proconfig) AS c
             WHERE c LIKE 'search_path=%') AS path
      FROM pg_proc p
     WHERE p.prosecdef AND p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'memforest\_%'
"""


def _for_each_definer(test: str, new_path: str) -> None:
    """Run ``ALTER FUNCTION ... SET search_path = <new_path>`` on each definer function whose stored
    path ``f.path`` passes ``test`` (both PL/pgSQL expressions over ``f.path``)."""
    op.execute(
        f"""
        DO $$
        DECLARE f record;
        BEGIN
            FOR f IN {_DEFINERS} LOOP
                IF {test} THEN
                    EXECUTE format('ALTER FUNCTION %s SET search_path = %s', f.signature, {new_path});
                END IF;
            END LOOP;
        END $$
        """
    )


def upgrade() -> None:
    # (a function stored without a path gets the migration session's, the one FROM CURRENT takes)
    _for_each_definer(
        r"f.path IS NULL OR f.path !~ '(^|,)\s*pg_temp\s*$'",
        "coalesce(f.path, current_setting('search_path')) || ', pg_temp'",
    )


def downgrade() -> None:
    _for_each_definer(r"f.path ~ ',\s*pg_temp$'", r"regexp_replace(f.path, ',\s*pg_temp$', '')")
