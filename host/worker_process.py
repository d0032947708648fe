"""What every worker process the bot starts does first (the GIF drawer, the statistics rebuild,
a card set's balance run — each a ``spawn`` process of a :class:`ProcessPoolExecutor`).

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=worker_process.start, initargs=(10,))

* **A lower priority** (``nice``): the bot's own process gets a core first whenever both want one.
* **It ends with the process that started it.**  A pool's workers wait on their call queue; when
  the bot is stopped without shutting its pools down (``SIGTERM`` from a shell or a supervisor,
  ``SIGKILL``, out of memory) nothing ever closes that queue, and each worker — a whole Python
  with the engines and renderers loaded, about 120 MiB — would wait for ever: a bot restarted
  every day would leave one behind each day.  A daemon thread waits on the parent's sentinel
  (:func:`multiprocessing.parent_process`: readable once the parent is gone, with no polling)
  and ends the worker at once.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading


def lower_priority(nice: int) -> None:
    try:
        os.nice(nice)
    except (AttributeError, OSError):    # no nice() on this platform, or not allowed: run as is
        pass


def exit_with_parent() -> bool:
    """In a worker process: end it as soon as the process that started it is gone.  False when
    this process was not started by :mod:`multiprocessing` (nothing to watch)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return False

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)          # the parent is gone: nobody is left to take a result

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
    return True


def start(nice: int) -> None:
    """A pool's initializer: :func:`lower_priority` and :func:`exit_with_parent`."""
    lower_priority(nice)
    exit_with_parent()
