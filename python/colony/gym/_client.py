"""The client ``Colony-v0`` talks through: :class:`~colony.Colony` with a leaner transport.

A step makes about 30 requests (the placement searches of the mask, the tiles, the summary, the
stats, the advance, the action). Through httpx each costs about 0.3-0.5 ms of Python on top of
the service's own time; over one kept-alive ``http.client`` connection about 0.1 ms. So when
colonyd is on this machine (a loopback host, plain HTTP, as ``colony.spawn`` starts it) the
requests go that way, with the same query, body, headers and answer handling as the httpx
transport (``_Common._params``; answers, errors and ``503`` retries are ``SyncBase._call``'s);
any other host keeps httpx.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
from typing import Any
from urllib.parse import urlencode

from .._base import _is_loopback
from ..client import Colony


def _closed(sock: socket.socket) -> bool:
    """Whether a kept connection has something to read before a request: the service closed
    it (idle for ``httpIdleSeconds``) or it is out of step. Either way it is not reused."""
    try:
        poller = select.poll()
    except AttributeError:  # (no poll on Windows)
        return bool(select.select([sock], [], [], 0)[0])
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


class StepClient(Colony):
    """A :class:`~colony.Colony` whose requests to a loopback colonyd go over one kept-alive
    ``http.client`` connection (see the module's doc)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._lean = _is_loopback(self.host)
        # httpx sends `Accept: */*`; the answer's shape follows `format` (and Accept).
        self._lean_headers = {"Accept": "*/*", **self._headers}
        self._conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        c = self._conn
        if c is not None and c.sock is not None and _closed(c.sock):
            c.close()
        if c is None:
            c = self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        if c.sock is None:
            c.connect()
            c.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return c

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _send(
        self, method: str, url: str, payload: bytes | None, headers: dict[str, str]
    ) -> tuple[int, Any, str | None]:
        """One request: the status, the decoded body and the Retry-After header."""
        try:
            c = self._connection()
            c.request(method, url, body=payload, headers=headers)
            r = c.getresponse()
            content = r.read()
        except (OSError, http.client.HTTPException) as e:
            self._drop()
            raise self._unreachable(e) from e
        ctype = r.getheader("content-type", "")
        value: Any = json.loads(content) if "json" in ctype else content.decode("utf-8", "replace")
        return r.status, value, r.getheader("retry-after")

    def _request(
        self, method: str, path: str, query: dict[str, Any] | None, data: dict[str, Any] | None
    ) -> tuple[int, Any, str | None]:
        if not self._lean:
            return super()._request(method, path, query, data)
        # (httpx sends None as an empty value.)
        params = {k: "" if v is None else v for k, v in self._params(query).items()}
        url = f"{path}?{urlencode(params)}" if params else path
        headers = self._lean_headers
        payload = None
        if data is not None:
            # As httpx encodes a json body.
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            payload = text.encode("utf-8")
            headers = {**headers, "Content-Type": "application/json"}
        return self._send(method, url, payload, headers)

    def close(self) -> None:
        self._drop()
        super().close()
