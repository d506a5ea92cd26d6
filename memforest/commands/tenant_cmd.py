"""``memforest tenant create|list`` and ``memforest key create|list|revoke``: the admin's tenants and
API keys, against the configured database (as the owner, like every local command), and the first
tenant and key of a new server (``memforest serve --bootstrap``)."""

from __future__ import annotations

import argparse
import json
import uuid
from dataclasses import dataclass
from typing import Any

from memforest.app import tenants
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.settings import Settings

DEFAULT_SCOPES = "read,write"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tenant`` and ``key`` groups."""
    t = sub.add_parser("tenant", help="tenants: create NAME | list", description="Create and list tenants.")
    tsub = t.add_subparsers(dest="tenant_command", required=True, metavar="ACTION")
    create = tsub.add_parser("create", help="create a tenant (names are unique)")
    create.add_argument("name", help="the tenant's name")
    create.add_argument("--json", action="store_true", help="print the tenant as JSON")
    create.set_defaults(handler=tenant_create)
    listing = tsub.add_parser("list", help="every tenant by name")
    listing.add_argument("--json", action="store_true", help="print the tenants as JSON")
    listing.set_defaults(handler=tenant_list)

    k = sub.add_parser(
        "key",
        help="API keys: create --tenant NAME | list --tenant NAME | revoke KEY_ID",
        description="Create, list and revoke tenant API keys. A key is printed once, when it is created: "
        "MemForest stores only its hash.",
    )
    ksub = k.add_subparsers(dest="key_command", required=True, metavar="ACTION")
    kc = ksub.add_parser("create", help="create a key for a tenant and print it (once)")
    kc.add_argument("--tenant", required=True, help="the tenant's name")
    kc.add_argument(
        "--scopes", default=DEFAULT_SCOPES, help=f"comma-separated: read, write, admin (default {DEFAULT_SCOPES})"
    )
    kc.add_argument("--json", action="store_true", help="print id, key and scopes as JSON")
    kc.set_defaults(handler=key_create)
    kl = ksub.add_parser("list", help="a tenant's keys (prefixes only, never the keys)")
    kl.add_argument("--tenant", required=True, help="the tenant's name")
    kl.add_argument("--json", action="store_true", help="print the keys as JSON")
    kl.set_defaults(handler=key_list)
    kr = ksub.add_parser("revoke", help="revoke a key by its id (idempotent)")
    kr.add_argument("key_id", help="the key's id, as printed by `key create` or `key list`")
    kr.add_argument("--tenant", default=None, help="the tenant that owns the key (default: found by the id)")
    kr.set_defaults(handler=key_revoke)


def _scopes(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _print_json(value: Any) -> None:
    print(json.dumps(value, sort_keys=True))


async def tenant_create(args: argparse.Namespace, settings: Settings) -> int:
    """Create the tenant; a name already taken is a one-line error."""
    async with open_database(settings) as db:
        tenant_id = await tenants.create_tenant(db, args.name)
    if args.json:
        _print_json({"id": str(tenant_id), "name": args.name})
    else:
        print(f"created tenant {args.name!r} (id {tenant_id})")
        print(f"next: memforest key create --tenant {args.name} --scopes {DEFAULT_SCOPES}")
    return 0


async def tenant_list(args: argparse.Namespace, settings: Settings) -> int:
    """Print every tenant: name, id, created."""
    async with open_database(settings) as db:
        rows = await tenants.list_tenants(db)
    if args.json:
        _print_json(rows)
    elif not rows:
        print("no tenants (create one: memforest tenant create NAME)")
    else:
        width = max(len(r["name"]) for r in rows)
        for r in rows:
            print(f"{r['name']:<{width}}  {r['id']}  {r['created_at']}")
    return 0


@dataclass(frozen=True, slots=True)
class NewKey:
    """A key just created: shown once, then only its prefix is ever seen again."""

    tenant: str
    key_id: uuid.UUID
    key: str
    scopes: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"tenant": self.tenant, "id": str(self.key_id), "key": self.key, "scopes": self.scopes}


def print_new_key(new: NewKey) -> None:
    """The key and how to use it (the only time it is shown)."""
    print(f"API key for tenant {new.tenant!r} (id {new.key_id}, scopes {','.join(new.scopes)}):")
    print(f"  {new.key}")
    print("It is shown only now: MemForest stores its hash. Use it as `Authorization: Bearer <key>`")
    print("or MEMFOREST_API_KEY for `memforest ... --url`.")


async def key_create(args: argparse.Namespace, settings: Settings) -> int:
    """Create a key for the named tenant (which must exist) and print it once."""
    async with open_database(settings) as db:
        tenant_id = await tenants.find_tenant(db, args.tenant)
        key_id, key, scopes = await tenants.create_key(db, tenant_id, _scopes(args.scopes))
    new = NewKey(args.tenant, key_id, key, scopes)
    if args.json:
        _print_json(new.as_dict())
    else:
        print_new_key(new)
    return 0


async def key_list(args: argparse.Namespace, settings: Settings) -> int:
    """Print the tenant's keys: id, prefix, scopes, created, revoked."""
    async with open_database(settings) as db:
        keys = await tenants.list_keys(db, await tenants.find_tenant(db, args.tenant))
    if args.json:
        _print_json(keys)
    elif not keys:
        print(f"tenant {args.tenant!r} has no keys")
    else:
        for k in keys:
            revoked = f"  revoked {k['revoked_at']}" if k["revoked_at"] else ""
            print(f"{k['id']}  {k['prefix']}...  {','.join(k['scopes'])}  created {k['created_at']}{revoked}")
    return 0


async def _key_owner(db: Database, key_id: uuid.UUID, tenant: str | None) -> uuid.UUID:
    """The tenant holding the key: the named one, or the one whose keys include the id."""
    if tenant is not None:
        return await tenants.find_tenant(db, tenant)
    for row in await tenants.list_tenants(db):
        tenant_id = uuid.UUID(row["id"])
        if any(k["id"] == str(key_id) for k in await tenants.list_keys(db, tenant_id)):
            return tenant_id
    raise NotFoundError(f"no API key with id {key_id}")


async def key_revoke(args: argparse.Namespace, settings: Settings) -> int:
    """Revoke the key; revoking a revoked key again is not an error."""
    try:
        key_id = uuid.UUID(args.key_id)
    except ValueError:
        raise InputError(f"not a key id: {args.key_id!r} (the id printed by `memforest key list`)") from None
    async with open_database(settings) as db:
        tenant_id = await _key_owner(db, key_id, args.tenant)
        try:
            await tenants.revoke_key(db, tenant_id, key_id)
        except NotFoundError:
            raise NotFoundError(f"tenant {args.tenant!r} has no API key with id {key_id}") from None
    print(f"revoked key {key_id}")
    return 0


async def bootstrap(db: Database, tenant: str, scopes: list[str]) -> NewKey | None:
    """On a database without tenants: create ``tenant`` and a key with ``scopes``. None when a
    tenant exists already (nothing is created), also when another process bootstrapped first."""
    if await tenants.list_tenants(db):
        return None
    try:
        tenant_id = await tenants.create_tenant(db, tenant)
    except ConflictError:
        return None
    key_id, key, granted = await tenants.create_key(db, tenant_id, scopes)
    return NewKey(tenant, key_id, key, granted)
