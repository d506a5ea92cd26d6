"""One exception tree for MemForest. Adapters translate driver/HTTP errors into these."""

from __future__ import annotations


class MemForestError(Exception):
    """Base of every error MemForest raises on purpose."""

    status_code = 500
    type_slug = "internal"


class ConfigurationError(MemForestError):
    """Settings are missing, inconsistent or point at something unusable."""

    type_slug = "configuration"


class DatabaseVersionError(ConfigurationError):
    """The PostgreSQL server or the pgvector extension is older than we support."""

    type_slug = "database-version"


class InputError(MemForestError):
    """Client input is malformed. ``location`` names the field / line at fault."""

    status_code = 422
    type_slug = "invalid-input"

    def __init__(self, message: str, *, location: str | None = None) -> None:
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class NotFoundError(MemForestError):
    """The object does not exist (or belongs to another tenant: indistinguishable by design)."""

    status_code = 404
    type_slug = "not-found"


class ConflictError(MemForestError):
    """The request conflicts with stored state (idempotency key reuse, session id reuse)."""

    status_code = 409
    type_slug = "conflict"


class PermissionDeniedError(MemForestError):
    """Authenticated, but not allowed to do this."""

    status_code = 403
    type_slug = "forbidden"


class AuthenticationError(MemForestError):
    """Missing, malformed or revoked credentials."""

    status_code = 401
    type_slug = "unauthorized"


class PayloadTooLargeError(MemForestError):
    """A request exceeds a configured size limit."""

    status_code = 413
    type_slug = "payload-too-large"


class ModelBackendError(MemForestError):
    """A model server failed in a way retries did not fix."""

    status_code = 502
    type_slug = "model-backend"


class ModelOutputError(ModelBackendError):
    """A model answered, but its output did not match the requested schema."""

    type_slug = "model-output"


class DatabaseUnavailableError(MemForestError):
    """The database cannot be reached right now (restarting, shutting down, connection lost): a
    transient condition, answered 503 with ``Retry-After``; retrying later is the cure."""

    status_code = 503
    type_slug = "database-unavailable"
    retry_after_s = 2

    def __init__(self, message: str = "the database is unavailable; retry shortly") -> None:
        super().__init__(message)


class InvariantViolation(MemForestError):
    """A MemTree or forest invariant does not hold (reported by ``memforest check``)."""

    type_slug = "invariant-violation"


_DRIVER_MODULES = ("sqlalchemy", "asyncpg", "psycopg")


def is_driver_error(exc: BaseException) -> bool:
    """Whether ``exc`` comes from the database driver (its text may quote SQL and stored values)."""
    return type(exc).__module__.split(".", 1)[0] in _DRIVER_MODULES


def public_reason(exc: BaseException) -> str:
    """What logs and job errors may say about ``exc``: a driver error becomes its class and SQLSTATE
    (its text quotes statements and values, which belong to tenants); other errors keep their text."""
    if not is_driver_error(exc):
        return str(exc)
    # the most specific error in the chain: the driver's own (asyncpg names the SQLSTATE's class)
    cause: BaseException = exc
    for link in (getattr(exc, "orig", None), exc.__cause__, getattr(exc.__cause__, "__cause__", None)):
        if isinstance(link, BaseException) and is_driver_error(link):
            cause = link
    sqlstate = next((getattr(e, a) for e in (cause, exc) for a in ("sqlstate", "pgcode") if getattr(e, a, None)), None)
    name = type(cause).__name__
    return f"database error ({name}, SQLSTATE {sqlstate})" if sqlstate else f"database error ({name})"
