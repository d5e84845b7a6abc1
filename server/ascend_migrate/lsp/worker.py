"""One background thread that runs analyses, newest request per key, so the event loop never waits.

A burst of changes to one document leaves one pending job for it: when the worker gets to it, it analyses
the document as it is then (the newest version), never each version in between.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger("ascend_migrate.lsp")


class AnalysisWorker:
    def __init__(self) -> None:
        self._pending: dict[str, Callable[[], None]] = {}
        self._condition = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._ready = threading.Event()  # set once the settings are known; jobs wait for it

    def ready(self) -> None:
        self._ready.set()

    def start(self, warm_up: Callable[[], None] | None = None) -> None:
        """Start the thread; it runs `warm_up` first (loading the engine on this thread rather than beside it
        avoids two threads importing the same modules at once)."""
        with self._condition:
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._run, args=(warm_up,), name="ascend-migrate-analysis", daemon=True)
                self._thread.start()

    def request(self, key: str, job: Callable[[], None]) -> None:
        """Run `job` soon; a job already waiting under `key` is replaced (it would do the same work, older)."""
        self.start()
        with self._condition:
            if self._stopped:
                return
            self._pending.pop(key, None)
            self._pending[key] = job
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._pending.clear()
            self._condition.notify_all()

    def _run(self, warm_up: Callable[[], None] | None) -> None:
        if warm_up is not None:
            try:
                warm_up()
            except Exception:
                logger.exception("warming up failed")
        # A client that never answers workspace/configuration must not stop analysis for good.
        self._ready.wait(timeout=5)
        while True:
            with self._condition:
                while not self._pending and not self._stopped:
                    self._condition.wait()
                if self._stopped:
                    return
                key = next(iter(self._pending))
                job = self._pending.pop(key)
            try:
                job()
            except Exception:
                logger.exception("analysis of %s failed", key)
