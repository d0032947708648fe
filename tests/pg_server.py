"""A throw-away PostgreSQL server for the tests: no network, no manual setup.

:func:`start` uses ``TEST_POSTGRES_URL`` when it is set (a server you run; each test then gets
its own database created on it, so the URL's user must be allowed to ``CREATE DATABASE``).
Otherwise it finds ``initdb``/``pg_ctl`` (on ``PATH``, else under ``/usr/lib/postgresql/*/bin``),
runs ``initdb`` into a temporary folder and starts a server that listens **only on a Unix socket
in that folder** (``listen_addresses=''``), with ``fsync`` off for speed.  PostgreSQL refuses to
run as root: as root, the folder is handed to the ``postgres`` user and the server runs as that
user; the tests connect over the socket as the ``postgres`` superuser (trust authentication,
socket only).  :meth:`PgServer.stop` stops it and removes the folder.

When there are no server binaries (or, as root, no ``postgres`` user), :func:`start` raises
:class:`Unavailable` with the reason and the fixtures turn it into a skip; binaries that are
there but fail to start a server raise an error (a real failure, not a skip).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote


class Unavailable(Exception):
    """No PostgreSQL server for the tests; the message says why."""


def find_bin_dir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: from PATH, else the newest
    ``/usr/lib/postgresql/<version>/bin``."""
    initdb = shutil.which("initdb")
    if initdb:
        real = Path(os.path.realpath(initdb)).parent
        if (real / "pg_ctl").exists():
            return real
        if shutil.which("pg_ctl"):
            return Path(initdb).parent
    def version(p: str) -> tuple:
        m = re.search(r"/postgresql/(\d+)(?:\.(\d+))?/", p)
        return (int(m.group(1)), int(m.group(2) or 0)) if m else (0, 0)
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if os.access(os.path.join(d, "initdb"), os.X_OK) and os.access(os.path.join(d, "pg_ctl"), os.X_OK):
            return Path(d)
    return None


@dataclass
class PgServer:
    """A running server: ``url(dbname)`` is a URL for one of its databases."""

    base_url: str                      # URL of the admin database (``postgres``)
    folder: Path | None = None         # the temporary folder (None: TEST_POSTGRES_URL)
    bin_dir: Path | None = None
    run_as: dict = field(default_factory=dict)

    def url(self, dbname: str) -> str:
        if self.folder is None:
            # replace the path of TEST_POSTGRES_URL, keep user, password, host and query
            from urllib.parse import urlsplit, urlunsplit
            p = urlsplit(self.base_url)
            return urlunsplit((p.scheme, p.netloc, "/" + quote(dbname), p.query, p.fragment))
        return f"postgresql://postgres@/{quote(dbname)}?host={quote(str(self.folder))}"

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            subprocess.run([str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"),
                            "-m", "immediate", "-w", "stop"], cwd=self.folder,
                           capture_output=True, timeout=60, **self.run_as)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def _run(cmd: list[str], folder: Path, run_as: dict, what: str) -> None:
    p = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=120, **run_as)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed ({p.returncode}): {p.stderr.strip() or p.stdout.strip()}")


def server_options(folder: Path, durable: bool = False) -> str:
    """The ``pg_ctl -o`` options :func:`start_local` starts a server in ``folder`` with: a Unix
    socket in ``folder`` only, and (unless ``durable``) fsync, synchronous commit and full page
    writes off.  Starting the same data folder again with them (``tests/faults.py``'s
    ``restart``) keeps the server's URLs valid."""
    return (f"-c listen_addresses='' -c unix_socket_directories='{folder}' "
            + ("" if durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off ")
            + "-c max_connections=200")


def start(durable: bool = False) -> PgServer:
    """A server for the tests (see the module docstring).  Raises :class:`Unavailable`.
    ``durable``: keep PostgreSQL's default fsync and synchronous commit (for benchmark figures
    comparable with SQLite's ``synchronous=FULL``); the tests leave them off for speed."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if url:
        return PgServer(base_url=url)
    return start_local(durable)


def start_local(durable: bool = False) -> PgServer:
    """Like :func:`start` but always a server of its own in a temporary folder, even when
    ``TEST_POSTGRES_URL`` is set (for tests that stop or freeze the server).  Raises
    :class:`Unavailable` when there are no server binaries."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise Unavailable("no PostgreSQL server binaries (initdb/pg_ctl not on PATH nor under "
                          "/usr/lib/postgresql/*/bin); install postgresql or set TEST_POSTGRES_URL")
    run_as: dict = {}
    folder = Path(tempfile.mkdtemp(prefix="doujin-pg-"))
    try:
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as 'postgres'
            import pwd
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no 'postgres' user to run "
                                  "the test server as") from None
            os.chown(folder, pw.pw_uid, pw.pw_gid)
            run_as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": [],
                      "env": {**os.environ, "HOME": str(folder), "USER": "postgres",
                              "LOGNAME": "postgres"}}
        data = folder / "data"
        _run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
              "-E", "UTF8", "--no-sync"], folder, run_as, "initdb")
        options = server_options(folder, durable)
        _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"),
              "-o", options, "-w", "-t", "60", "start"], folder, run_as, "pg_ctl start")
    except Unavailable:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    except BaseException as e:
        log = folder / "server.log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        server = PgServer(base_url="", folder=folder, bin_dir=bin_dir, run_as=run_as)
        server.stop()
        if isinstance(e, Exception):  # the binaries are there: a failure to start is a failure
            raise RuntimeError(f"could not start a test PostgreSQL server with {bin_dir}: {e}"
                               + (f"\n{tail}" if tail else "")) from e
        raise
    server = PgServer(base_url="", folder=folder, bin_dir=bin_dir, run_as=run_as)
    server.base_url = server.url("postgres")
    return server
