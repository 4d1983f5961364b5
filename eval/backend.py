"""Where games run: one backend for ``arena eval``/``match``, ``arena balance`` and ``arena soak``
(docs/scaling.md).

``run_jobs(play, data, jobs, backend)`` plays ``play(data, job)`` for every job and yields
``(job, result)`` pairs as they finish (in no fixed order). ``play`` and ``setup`` are module-level
functions (they are sent to the workers by name); ``data`` is what every job needs (the config),
sent once; ``setup(data)``, if given, runs once in each worker process before its first job (never
in the calling process). Jobs may be an endless iterator: no more are sent once ``keep_going()``
returns false, and the jobs already out are waited for.

Two implementations, chosen by ``Backend.ray``:

- **local** (``ray=None``, the default): a ``multiprocessing`` pool of ``workers`` processes
  (forkserver where there is one), jobs sent in batches of ``batch``, at most ``2 * workers``
  batches out at once; with ``workers == 1`` the jobs are played in this process, one by one.
  Workers ignore Ctrl-C (the caller stops the pool).
- **Ray** (``ray="local"``: start Ray on this machine with ``workers`` CPUs; ``ray=ADDRESS``: join
  that cluster): each batch of ``ray_batch`` jobs is one Ray task named ``arena_batch`` with
  ``max_retries=RETRIES``, so a batch whose worker dies (a system error) is played again
  elsewhere; ``ray.wait`` hands back batches as they finish; at most ``2 * CPUs`` batches are out
  at once, so ``--seconds`` and Ctrl-C stop promptly (what is out is cancelled). Results are
  de-duplicated by ``key(job)``, so no game is ever handed back twice. A Ray that is already
  running in this process (``ray.init`` by the caller) is used as it is and left running.

Every game is seeded by its job alone, so both backends give the same results.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import queue
import re
import signal
import socket
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Backend", "LOCAL_RAY", "RETRIES", "TASK_NAME", "add_ray_flag", "backend_of",
           "connect", "ray_address", "run_jobs", "session"]

LOCAL_RAY = "local"
"""``Backend.ray`` for a Ray started on this machine (``--ray`` without an address)"""
RETRIES = 5
"""times a Ray batch is played again after its worker died"""
TASK_NAME = "arena_batch"
"""the Ray task name of a batch (``ray::arena_batch`` in the worker's process title)"""
CONNECT_SECONDS = 5.0
"""how long a cluster's address may take to answer"""
INSTALL = "--ray needs Ray, which is not installed: pip install -e '.[ray]'"
_ADDRESS = re.compile(r"^(ray://)?[A-Za-z0-9_.\-]+:\d{1,5}$")


@dataclass(frozen=True)
class Backend:
    """Where the games of one command run (see the module docstring)."""

    workers: int = 2
    """local: processes; local Ray: its CPUs (on a cluster: ignored, the cluster's CPUs count)"""
    ray: str | None = None
    """``None``: the local pool; ``LOCAL_RAY``: Ray started here; else a cluster's address"""

    def describe(self) -> str:
        if self.ray is None:
            return f"{self.workers} worker{'s' if self.workers != 1 else ''}"
        if self.ray == LOCAL_RAY:
            return f"Ray on this machine, {self.workers} CPUs"
        return f"the Ray cluster at {self.ray}"


def ray_address(text: str) -> str:
    """Check a ``--ray`` value: ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``."""
    if text == "auto" or _ADDRESS.match(text):
        return text
    raise ValueError(
        f"--ray: {text!r} is not a Ray address (HOST:PORT, ray://HOST:PORT or auto); "
        "write --ray=ADDRESS, or put a bare --ray after the other arguments"
    )


def add_ray_flag(parser: Any) -> None:
    """``--ray [ADDRESS]`` on an argparse parser (``args.ray``: ``None``, ``LOCAL_RAY`` or the
    address as given; check it with ``ray_address``)."""
    parser.add_argument(
        "--ray", nargs="?", const=LOCAL_RAY, default=None, metavar="ADDRESS",
        help="play the games on Ray: on this machine with --workers CPUs, or on the cluster at "
        "ADDRESS (HOST:PORT; docs/scaling.md); needs pip install -e '.[ray]'",
    )


def backend_of(ray: str | None, workers: int) -> Backend:
    """The ``Backend`` of a command's ``--ray`` and ``--workers`` (the address checked; Ray's
    presence checked now, so a missing install is one line before any game)."""
    if ray is not None:
        _import_ray()
        if ray != LOCAL_RAY:
            _answers(ray_address(ray))
    return Backend(workers=workers, ray=ray)


def run_jobs(
    play: Callable[[Any, Any], Any],
    data: Any,
    jobs: Iterable[Any],
    backend: Backend,
    *,
    setup: Callable[[Any], None] | None = None,
    batch: int = 1,
    ray_batch: int | None = None,
    key: Callable[[Any], Any] | None = None,
    keep_going: Callable[[], bool] | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Play every job; yield ``(job, play(data, job))`` as each finishes (module docstring)."""
    go = keep_going or (lambda: True)
    it = iter(jobs)
    if backend.ray is not None:
        yield from _ray_jobs(play, data, it, backend, setup, ray_batch or batch, key, go)
    elif backend.workers <= 1:
        for job in it:
            if not go():
                break
            yield job, play(data, job)
    else:
        yield from _pool_jobs(play, data, it, backend.workers, setup, batch, go)


def _batches(jobs: Iterator[Any], size: int) -> Iterator[list[Any]]:
    while chunk := list(itertools.islice(jobs, max(1, size))):
        yield chunk


# ---------------------------------------------------------------------------------- local pool

_STATE: dict[str, Any] = {}


def _pool_init(setup: Callable[[Any], None] | None, data: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() ends the worker
    _STATE["data"] = data
    if setup is not None:
        setup(data)


def _pool_batch(play: Callable[[Any, Any], Any], chunk: list[Any]) -> list[Any]:
    return [play(_STATE["data"], job) for job in chunk]


def _pool_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _pool_jobs(play: Callable[[Any, Any], Any], data: Any, jobs: Iterator[Any], workers: int,
               setup: Callable[[Any], None] | None, batch: int,
               go: Callable[[], bool]) -> Iterator[tuple[Any, Any]]:
    pool = _pool_context().Pool(workers, initializer=_pool_init, initargs=(setup, data))
    done: queue.SimpleQueue[tuple[list[Any], Any, BaseException | None]] = queue.SimpleQueue()
    chunks = _batches(jobs, batch)
    out, exhausted = 0, False
    try:
        while True:
            while not exhausted and out < 2 * workers and go():
                chunk = next(chunks, None)
                if chunk is None:
                    exhausted = True
                    break
                pool.apply_async(
                    _pool_batch, (play, chunk),
                    callback=lambda res, c=chunk: done.put((c, res, None)),
                    error_callback=lambda e, c=chunk: done.put((c, None, e)),
                )
                out += 1
            if not out:
                break
            try:
                chunk, results, error = done.get(timeout=0.1)
            except queue.Empty:
                continue
            out -= 1
            if error is not None:
                raise error
            yield from zip(chunk, results, strict=True)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


# ---------------------------------------------------------------------------------- Ray

_READY: set[str] = set()


def _ray_batch(play: Callable[[Any, Any], Any], setup: Callable[[Any], None] | None,
               token: str, data: Any, chunk: list[Any]) -> list[Any]:
    """One Ray task: ``setup`` once per worker process and run, then every job of ``chunk``."""
    if token not in _READY:
        if setup is not None:
            setup(data)
        _READY.add(token)
    return [play(data, job) for job in chunk]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError(INSTALL) from None
    return ray


def _code_env() -> dict[str, Any]:
    """The runtime environment that ships this checkout's code to a cluster's workers: the
    ``envs``, ``agents`` and ``eval`` packages as ``py_modules``."""
    import agents
    import envs
    import eval as eval_pkg

    return {"py_modules": [envs, agents, eval_pkg]}


def _answers(address: str) -> str:
    """A one-line error at once when nothing listens at ``address`` (Ray itself retries for
    minutes)."""
    if address == "auto":
        return address
    host, port = address.removeprefix("ray://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        raise ValueError(f"--ray {address}: no Ray cluster answers there ({e})") from None
    return address


def connect(backend: Backend) -> bool:
    """Start or join Ray for ``backend``; ``True`` when this call started the connection (and
    the caller shuts it down). One-line ``ValueError`` for an address that cannot be joined."""
    ray = _import_ray()
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
    if backend.ray == LOCAL_RAY:
        # local workers start in this process's folder with its sys.path: they import this
        # checkout's code as it is
        # never a Ray already running; workers at the priority of a local pool's (Ray's default
        # niceness, 15, starves them next to any other busy process)
        ray.init(address="local", num_cpus=backend.workers, _system_config={"worker_niceness": 0},
                 **quiet)
        return True
    address = _answers(ray_address(str(backend.ray)))
    try:
        ray.init(address=address, runtime_env=_code_env(),
                 **{k: v for k, v in quiet.items() if k != "include_dashboard"})
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ValueError(f"--ray {address}: cannot join a Ray cluster there ({first})") from None
    return True


@contextlib.contextmanager
def session(backend: Backend) -> Iterator[None]:
    """Keep Ray up for a whole command (``arena balance`` plays in several rounds): connect on
    entry when ``backend`` is Ray, shut down on exit what this started. Nothing for local."""
    owned = backend.ray is not None and connect(backend)
    try:
        yield
    finally:
        if owned:
            _import_ray().shutdown()


def cluster_cpus() -> int:
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _ray_jobs(play: Callable[[Any, Any], Any], data: Any, jobs: Iterator[Any], backend: Backend,
              setup: Callable[[Any], None] | None, batch: int, key: Callable[[Any], Any] | None,
              go: Callable[[], bool]) -> Iterator[tuple[Any, Any]]:
    ray = _import_ray()
    owned = connect(backend)
    pending: dict[Any, list[Any]] = {}
    try:
        limit = 2 * cluster_cpus()
        task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(_ray_batch)
        task = task.options(name=TASK_NAME)
        token, data_ref = uuid.uuid4().hex, ray.put(data)
        chunks = _batches(jobs, batch)
        seen: set[Any] = set()
        exhausted = False
        while True:
            while not exhausted and len(pending) < limit and go():
                chunk = next(chunks, None)
                if chunk is None:
                    exhausted = True
                    break
                pending[task.remote(play, setup, token, data_ref, chunk)] = chunk
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
            for ref in ready:
                chunk = pending.pop(ref)
                for job, result in zip(chunk, ray.get(ref), strict=True):
                    k = key(job) if key is not None else job
                    if k in seen:
                        continue  # never twice, whatever the retries did
                    seen.add(k)
                    yield job, result
    finally:
        for ref in pending:
            ray.cancel(ref)  # a Ctrl-C, --seconds or an error: what is still out
        if owned:
            ray.shutdown()
