"""Run the SIMULATED server in its own process, as a real vLLM server would run.

A server in a thread of the client's process shares the client's interpreter lock: every
simulated request then costs the client CPU time it would not spend against a real server, and
the more concurrent the client, the more it pays. Throughput benchmarks use this runner so that
the client under test is charged only for its own work.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import socket
from collections.abc import Iterator
from multiprocessing.connection import Connection

import uvicorn

from memforest.testing.simulated_llm.config import SimulationConfig
from memforest.testing.simulated_llm.server import create_app


def _serve(config: SimulationConfig, host: str, ready: Connection) -> None:
    """Child process: bind a free port, report it, serve until terminated."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(4096)  # connections made before uvicorn starts wait in the backlog
    ready.send(int(sock.getsockname()[1]))
    ready.close()
    server = uvicorn.Server(
        uvicorn.Config(create_app(config), log_level="warning", access_log=False, lifespan="off", backlog=4096)
    )
    server.run(sockets=[sock])


@contextlib.contextmanager
def run_server_in_process(
    config: SimulationConfig, host: str = "127.0.0.1", *, startup_timeout_s: float = 30.0
) -> Iterator[str]:
    """Serve the SIMULATED server from a child process; yields ``http://HOST:PORT/v1``.

    The child is started with ``spawn`` (no inherited event loop or connections) and terminated
    on exit.
    """
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_serve, args=(config, host, send), name="simulated-llm", daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(startup_timeout_s):
            raise RuntimeError(f"simulated LLM server process did not start within {startup_timeout_s} s")
        port = int(receive.recv())
        url_host = f"[{host}]" if ":" in host else host
        yield f"http://{url_host}:{port}/v1"
    finally:
        receive.close()
        child.terminate()
        child.join(timeout=15)
        if child.is_alive():
            child.kill()
            child.join(timeout=5)
