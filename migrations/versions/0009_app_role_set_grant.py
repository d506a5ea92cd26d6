"""Let the migrating role SET ROLE memforest_app on PostgreSQL 16 and later.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23

Since PostgreSQL 16 a CREATEROLE user that creates a role gets only ADMIN on it (no SET, no
INHERIT), so the owner that ran 0001 could not ``SET ROLE memforest_app``, and every tenant
transaction failed with "permission denied to set role". Grant the role to the migrating role
WITH SET TRUE, INHERIT FALSE (it needs to become the role, not to carry its privileges). On
PostgreSQL 15 plain membership allows SET ROLE and the WITH options do not exist. A superuser
needs nothing. Where the migrating role may not grant it (managed PostgreSQL without ADMIN on the
role), a notice says so and the service's start-up check names the missing grant (ADR 0018).
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"


def upgrade() -> None:
    op.execute(
        f"""
        DO $$
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                RAISE NOTICE 'role {APP_ROLE} does not exist; create it and grant it (docs/deploy.md)';
            ELSIF current_setting('server_version_num')::int >= 160000 THEN
                IF NOT pg_has_role(current_user, '{APP_ROLE}', 'SET') THEN
                    EXECUTE format('GRANT {APP_ROLE} TO %I WITH INHERIT FALSE, SET TRUE', current_user);
                END IF;
            ELSIF NOT pg_has_role(current_user, '{APP_ROLE}', 'MEMBER') THEN
                EXECUTE format('GRANT {APP_ROLE} TO %I', current_user);
            END IF;
        EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
            RAISE NOTICE 'cannot grant {APP_ROLE} to %; grant it WITH SET TRUE by hand (docs/deploy.md)',
                current_user;
        END
        $$
        """
    )


def downgrade() -> None:
    # The grant is left in place: revoking it could break a running deployment, and it gives the
    # migrating role nothing it could not already take with ADMIN.
    pass
