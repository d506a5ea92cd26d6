"""Is row-level security in force for tenant work? Checked at start-up and by ``/readyz`` (ADR 0018).

In force means: tenant connections can ``SET ROLE memforest_app``; that role and every role the
tenant connections' *login* role can reach (``RESET ROLE``, ``SET ROLE``) is subject to the
``tenant_isolation`` policy of every tenant table: no superuser, no BYPASSRLS, no owner of a table
without FORCE ROW LEVEL SECURITY. Each check answers ``None`` or one line saying what is wrong.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.schema import TENANT_TABLES

APP_ROLE = "memforest_app"
POLICY = "tenant_isolation"
PREFIX = "row-level security is not in force: "
HOW = "see 'Row-level security and roles' in docs/deploy.md"

_ROLE_EXISTS = "SELECT 1 FROM pg_roles WHERE rolname = :r"
_CAN_SET = "SELECT session_user::text, pg_has_role(session_user, :r, :how)"
# Tables without RLS (or without our policy), and the roles a login role can reach that bypass it.
_UNPROTECTED = (
    "SELECT t.name FROM unnest(CAST(:tables AS text[])) AS t(name) "
    "LEFT JOIN pg_class c ON c.oid = to_regclass(t.name) "
    "WHERE c.oid IS NULL OR NOT c.relrowsecurity OR NOT EXISTS "
    "(SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = :policy) ORDER BY t.name"
)
_BYPASSING = (
    "WITH unforced AS (SELECT c.relowner FROM pg_class c JOIN unnest(CAST(:tables AS text[])) AS t(name) "
    "ON c.oid = to_regclass(t.name) WHERE NOT c.relforcerowsecurity) "
    "SELECT r.rolname::text AS role, r.rolsuper AS super, r.rolbypassrls AS bypass FROM pg_roles r "
    "WHERE pg_has_role(CAST(:login AS name), r.oid, 'MEMBER') "
    "AND (r.rolsuper OR r.rolbypassrls OR r.oid IN (SELECT relowner FROM unforced)) "
    "ORDER BY r.rolname = CAST(:login AS name) DESC, r.rolname LIMIT 1"
)


def _why(row: dict[str, object]) -> str:
    if row["super"]:
        return "is a superuser"
    if row["bypass"]:
        return "has BYPASSRLS"
    return "owns the tables (no FORCE ROW LEVEL SECURITY)"


async def rls_problem(conn: AsyncConnection, server_version_num: int) -> str | None:
    """What keeps RLS from applying to tenant work on ``conn`` (a tenant-pool connection, before
    ``SET ROLE``), as one line starting "row-level security is not in force", or None."""
    if (await conn.execute(text(_ROLE_EXISTS), {"r": APP_ROLE})).first() is None:
        return (
            f"{PREFIX}role {APP_ROLE} does not exist (run `memforest db upgrade` as a role that may create "
            f"roles, or create it); {HOW}"
        )
    how = "SET" if server_version_num >= 160000 else "MEMBER"  # PostgreSQL 15 has no SET option on grants
    login, can_set = (await conn.execute(text(_CAN_SET), {"r": APP_ROLE, "how": how})).one()
    if not can_set:
        grant = f"GRANT {APP_ROLE} TO {login} WITH SET TRUE"
        return f"{PREFIX}database user {login!r} cannot SET ROLE {APP_ROLE} ({grant}); {HOW}"
    tables = list(TENANT_TABLES)
    bare = (await conn.execute(text(_UNPROTECTED), {"tables": tables, "policy": POLICY})).scalars().all()
    if bare:
        return f"{PREFIX}table {bare[0]} has no {POLICY} policy enabled (run `memforest db upgrade`); {HOW}"
    for who in (APP_ROLE, login):
        row = (await conn.execute(text(_BYPASSING), {"login": who, "tables": tables})).mappings().first()
        if row is None:
            continue
        if who == APP_ROLE:
            return f"{PREFIX}role {APP_ROLE} reaches role {row['role']!r}, which {_why(dict(row))}; {HOW}"
        reach = "" if row["role"] == login else f"can SET ROLE {row['role']!r}, which "
        return (
            f"{PREFIX}tenant connections log in as {login!r}, which {reach}{_why(dict(row))}, so RESET ROLE "
            f"escapes it; set MEMFOREST_DATABASE_TENANT_URL to a login role that is only a member of "
            f"{APP_ROLE}; {HOW}"
        )
    return None
