"""A worker process of the bot ends with the bot (host/worker_process.py).

The GIF drawer, the statistics rebuild and a balance run each start ``spawn`` worker processes.
A bot stopped without shutting its pools down — ``SIGTERM`` from a shell or a supervisor,
``SIGKILL``, out of memory — left each worker waiting on its call queue for ever (the suite's
end-to-end bots alone left over thirty behind a run, 120 MiB each).  Here a real bot-side pool is
started in a process of its own, that process is killed, and its worker must be gone soon after."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the parent: the pool the bot's GIF drawing uses, its worker's pid printed once it runs
PARENT = """
import os, sys, time
from host import gif_worker
pool = gif_worker._executor()
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie not yet reaped by its new parent counts as gone
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and sends POSIX signals")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_the_worker_ends_when_the_bot_is_killed_without_closing_its_pool(how):
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        worker = int(parent.stdout.readline())
        assert worker != parent.pid and _alive(worker)
        parent.send_signal(how)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker), f"worker {worker} outlived its bot ({how.name})"
    finally:
        parent.kill()
        parent.wait(10)


def test_outside_a_worker_process_there_is_nothing_to_watch():
    from host import worker_process

    assert worker_process.exit_with_parent() is False
