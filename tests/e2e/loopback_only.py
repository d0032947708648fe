"""TEST ONLY: in the bot process, refuse every network connection that is not to loopback.

Loaded into every e2e bot process through the testing-only hook of ``bot.py``
(``BOT_TEST_PLUGINS=tests.e2e.loopback_only``), so a call that would reach the real Discord (or
anything else) fails loudly — an ERROR in the bot's log fails the test — instead of leaving the
machine.  It changes nothing else: the bot is the one users run.
"""
from __future__ import annotations

import logging
import socket

LOOPBACK = ("127.0.0.1", "::1", "localhost")
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _refuse(host: object) -> None:
    logging.getLogger("bot").error("TESTING: the bot tried to reach %s; only loopback is allowed", host)
    raise OSError(f"e2e tests allow loopback only, not {host}")


def _guard(sock: socket.socket, address: object) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
        if str(address[0]) not in LOOPBACK:
            _refuse(address[0])


def connect(self, address):  # type: ignore[no-untyped-def]
    _guard(self, address)
    return _connect(self, address)


def connect_ex(self, address):  # type: ignore[no-untyped-def]
    _guard(self, address)
    return _connect_ex(self, address)


def getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    if host is not None and (host.decode() if isinstance(host, bytes) else str(host)) not in LOOPBACK:
        _refuse(host)
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = connect            # type: ignore[method-assign]
socket.socket.connect_ex = connect_ex      # type: ignore[method-assign]
socket.getaddrinfo = getaddrinfo
