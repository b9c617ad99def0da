"""Text extraction of fetched pages in worker processes, each page with a time bound.

Extracting a page's text (lxml, the page's own CSS cascade, trafilatura's metadata, pypdf)
is CPU work on hostile input, and it ran in the event loop's default thread pool with no
bound of its own: one CSS rule on a 1.3 KB page took 13-18 s (cssselect2 backtracks
exponentially on a chain of descendant selectors over deep nesting), six such pages filled
the default pool and stalled every background task of the process, and a thread cannot be
stopped. So each page is extracted in a worker process of a pool of its own (at most
``WORKERS`` per event loop at once); a page that is not done within its time bound has its
process killed and is refused with reason ``timeout``; a worker that dies is replaced. Each
worker also runs under an address-space limit, so a page cannot take the machine's memory.

The workers are plain ``python -m deep_research.search.extraction_pool`` processes (not
``multiprocessing``, which would re-import the parent's ``__main__``: the CLI, a LangGraph
server, a test runner) speaking length-prefixed pickles over their stdin and stdout; they
outlive event loops and end when the parent does (their stdin closes).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import pickle
import struct
import subprocess
import sys
import threading
import weakref
from typing import Any

WORKERS = 2
START_TIMEOUT_S = 60.0  # a new worker imports lxml, trafilatura and pypdf: slow on a loaded machine
MEMORY_LIMIT_BYTES = 2 * 1024**3
_HEADER = struct.Struct(">Q")
_MAX_FRAME = 512 * 1024 * 1024


class ExtractionTimeout(Exception):
    """The page was not extracted within its time bound (its worker was stopped)."""


class ExtractionFailed(Exception):
    """The worker could not extract the page (it crashed, or ran out of memory)."""


# --- the worker process ----------------------------------------------------------------------
def _jobs() -> dict[str, Any]:
    from .fetch import extract_page

    return {"page": extract_page}


def _read_exact(fd: int, n: int) -> bytes:
    parts, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _write_frame(fd: int, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_frame(fd: int) -> Any:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    if size > _MAX_FRAME:
        raise ValueError(f"a frame of {size:,} bytes")
    return pickle.loads(_read_exact(fd, size))


def serve() -> None:
    """The worker's loop: read a job, run it, answer; exit when the parent closes stdin."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    except (ImportError, ValueError, OSError):
        pass
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    sys.stdout = sys.stderr  # nothing a library prints may corrupt the answers
    jobs = _jobs()
    _write_frame(fd_out, ("ready",))
    while True:
        try:
            name, args = _read_frame(fd_in)
        except EOFError:
            return
        try:
            _write_frame(fd_out, ("ok", jobs[name](*args)))
        except MemoryError:
            _write_frame(fd_out, ("error", "MemoryError", f"more than {MEMORY_LIMIT_BYTES:,} bytes of memory"))
        except Exception as e:  # noqa: BLE001 - the parent turns it into the page's refusal
            _write_frame(fd_out, ("error", type(e).__name__, str(e)[:500], _fields(e)))


def _fields(e: Exception) -> dict:
    """What the parent needs to rebuild an exception of ours (a FetchError's reason)."""
    return {k: getattr(e, k) for k in ("url", "reason", "detail") if isinstance(getattr(e, k, None), str)}


# --- the parent's side -----------------------------------------------------------------------
class _Worker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, bufsize=0, close_fds=True)
        self.ready = False

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass

    async def _answer(self, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        fd = self.proc.stdout.fileno()
        readable = loop.create_future()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            await asyncio.wait_for(readable, timeout)
        finally:
            loop.remove_reader(fd)
        return _read_frame(fd)  # the worker writes an answer whole, at once

    async def call(self, name: str, args: tuple, timeout: float) -> Any:
        if not self.ready:
            if await self._answer(START_TIMEOUT_S) != ("ready",):
                raise ExtractionFailed("the extraction worker did not start")
            self.ready = True
        _write_frame(self.proc.stdin.fileno(), (name, args))
        return await self._answer(timeout)


class ExtractionPool:
    """Worker processes shared by every fetcher of the process; at most ``workers`` jobs
    at once per event loop."""

    def __init__(self, workers: int = WORKERS):
        self.workers = workers
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        with self._lock:
            if loop not in self._slots:
                self._slots[loop] = asyncio.Semaphore(self.workers)
            return self._slots[loop]

    async def run(self, name: str, *args: Any, timeout: float) -> Any:
        """``name``'s job run on ``args`` in a worker: its result, the exception it raised
        (rebuilt by :func:`rebuild`), :class:`ExtractionTimeout` when it takes longer than
        ``timeout`` seconds (waiting for a free worker has a bound of its own, the same),
        or :class:`ExtractionFailed` when the worker dies."""
        sem = self._semaphore()
        try:
            await asyncio.wait_for(sem.acquire(), timeout)
        except TimeoutError:
            raise ExtractionTimeout(f"no extraction worker was free within {timeout:g} s") from None
        worker = None
        try:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None or worker.proc.poll() is not None:
                worker = _Worker()
            answer = await worker.call(name, args, timeout)
        except TimeoutError:
            worker.kill()
            raise ExtractionTimeout(f"extracting the text took longer than {timeout:g} s") from None
        except (EOFError, OSError, ValueError, pickle.PickleError) as e:
            if worker is not None:
                worker.kill()
            code = worker.proc.returncode if worker is not None else None
            raise ExtractionFailed(f"the extraction worker stopped ({type(e).__name__}"
                                   + (f", exit code {code}" if code is not None else "") + ")") from None
        except BaseException:  # cancelled: the worker may be busy still
            if worker is not None:
                worker.kill()
            raise
        finally:
            sem.release()
        with self._lock:
            self._idle.append(worker)
        if answer[0] == "ok":
            return answer[1]
        raise rebuild(answer)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for w in idle:
            w.kill()


def rebuild(answer: tuple) -> Exception:
    """The exception a worker reported, as the parent's type when it is one of ours."""
    _, kind, message, *rest = answer
    fields = rest[0] if rest else {}
    if kind == "FetchError" and {"url", "reason", "detail"} <= set(fields):
        from .fetch import FetchError

        return FetchError(fields["url"], fields["reason"], fields["detail"])
    return ExtractionFailed(f"{kind}: {message}")


POOL = ExtractionPool()
atexit.register(POOL.close)

if __name__ == "__main__":
    serve()
