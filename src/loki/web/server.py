"""How ``loki web`` is served: uvicorn's settings (:func:`server_config`) and its HTTP protocol with a deadline for
each request's head (:class:`DeadlineH11Protocol`).

What a client can hold, and for how long:

* a connection that sends nothing, or only part of a request's head (a request line, some headers), is closed
  :data:`~loki.web.app.REQUEST_TIMEOUT` seconds after it opened; so is a kept-alive connection that does not send
  a whole next request head within that time of its last answer (uvicorn closes a silent one after
  :data:`KEEP_ALIVE` seconds);
* a request whose body does not arrive whole within :data:`~loki.web.app.REQUEST_TIMEOUT` seconds is answered 408
  (the app counts the time while reading it);
* at most :data:`MAX_CONNECTIONS` connections and requests in progress: a request that arrives while as many
  connections are open (its own included), or as many requests are in progress, is answered 503 at once and its
  connection closed.
  Connections beyond it are still accepted (so file descriptors are bounded by what a client can open within
  :data:`~loki.web.app.REQUEST_TIMEOUT` seconds, not by :data:`MAX_CONNECTIONS`), and while a crowd of idle
  connections lasts, other clients' requests are answered 503: the page tries again;
* an open WebSocket is held for as long as its peer answers uvicorn's pings (a page that stays open keeps its
  socket), and counts towards :data:`MAX_CONNECTIONS`;
* once told to stop (Ctrl-C, SIGTERM), the server ends the requests still in progress after :data:`SHUTDOWN_GRACE`
  seconds (a bot's decision can take minutes), quietly (an ended request is no error to log), and :func:`serve`
  closes every table: a bot deciding finishes that decision (it cannot be cut short) and no bot acts after it, so
  the process ends once that decision does.

The head deadline relies on the internals of uvicorn's h11 protocol (``scope``, ``transport``,
``on_response_complete``); ``tests/test_web.py`` checks it against the uvicorn installed.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from loki.web import app as web_app

__all__ = ["serve", "server_config", "DeadlineH11Protocol", "MAX_CONNECTIONS", "KEEP_ALIVE", "SHUTDOWN_GRACE"]

#: Connections, and requests in progress, the server takes at once; a request beyond them is answered 503.
MAX_CONNECTIONS = 64
#: Seconds a kept-alive connection may stay silent after an answer before the server closes it.
KEEP_ALIVE = 5
#: Seconds the server gives the requests in progress once told to stop (Ctrl-C, SIGTERM) before it ends them.
SHUTDOWN_GRACE = 3


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection that has not sent a whole request head within
    :data:`~loki.web.app.REQUEST_TIMEOUT` seconds of opening or of its last answer (uvicorn's own timer stops at the
    first byte, so a peer that trickles a head, or sends none, would hold its connection for ever)."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        """A new connection: its first request head is due within the deadline."""
        super().connection_made(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        """Bytes from the client; the deadline is met once they complete a request head."""
        scope = self.scope
        super().data_received(data)
        if self.scope is not scope:  # a whole request head came (a request, or a WebSocket upgrade)
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        """An answer sent: on a kept-alive connection the next request head is due within the deadline."""
        scope = self.scope
        super().on_response_complete()
        if self.scope is scope and not self.transport.is_closing():  # no pipelined request began: wait for one
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: no deadline left."""
        self._stop_head_timer()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(web_app.REQUEST_TIMEOUT, self._head_too_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def server_config(app: Any) -> uvicorn.Config:
    """The ``uvicorn.Config`` ``loki web`` serves ``app`` with (the module docstring says what it bounds):
    :class:`DeadlineH11Protocol`, at most :data:`MAX_CONNECTIONS` connections and requests in progress, kept-alive
    connections closed after :data:`KEEP_ALIVE` silent seconds, WebSocket messages beyond the app's body limit
    refused by the server itself (close 1009), and a stop that ends the requests still in progress after
    :data:`SHUTDOWN_GRACE` seconds."""
    return uvicorn.Config(
        app,
        http=DeadlineH11Protocol,
        log_level="warning",
        lifespan="off",
        ws_max_size=web_app.MAX_BODY + 1024,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )


def _not_an_ended_request(record: logging.LogRecord) -> bool:
    """uvicorn logs a request its stop ended (cancelled after :data:`SHUTDOWN_GRACE`) as an "Exception in ASGI
    application" with its traceback: no error, so not logged."""
    exc = record.exc_info[1] if record.exc_info else None
    return not isinstance(exc, asyncio.CancelledError)


def serve(server: uvicorn.Server, sock: socket.socket) -> None:
    """Run ``server`` (made with :func:`server_config`) on the bound socket ``sock`` until it is told to stop, then
    close every table of its app (``app.state.sessions``, :meth:`loki.web.session.TableSession.close`), so that no
    bot plays on in a worker thread after the server ended.  ``sock`` is left open (the caller's)."""
    errors = logging.getLogger("uvicorn.error")
    errors.addFilter(_not_an_ended_request)
    try:
        server.run(sockets=[sock])
    finally:
        errors.removeFilter(_not_an_ended_request)
        app: Any = server.config.app  # the app server_config was given (create_app's)
        app.state.sessions.close_all()
