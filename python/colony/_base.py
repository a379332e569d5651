"""The transport under the generated route methods: one HTTP request, its answer or a
:class:`~colony.errors.ColonyError`, for the blocking and the asyncio client.

Every request asks for the nested ``json`` format unless the client was made with another. An
error body raises whatever the HTTP status (domain errors come with 200); ``503`` (``queue_full``,
``game_loading``) is retried after its ``Retry-After``, a few times. ``localhost`` is sent as
``127.0.0.1``: the service checks the Host header against its loopback bind address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx

from .errors import ColonyError


class Unset:
    """The default of an optional parameter: the member is left out of the request."""

    _instance: Unset | None = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


def body(*pairs: Any) -> dict[str, Any]:
    """A request's members from ``wire_name, value`` pairs, leaving out the unset ones."""
    return {pairs[i]: pairs[i + 1] for i in range(0, len(pairs), 2) if pairs[i + 1] is not UNSET}


def _query_value(v: Any) -> Any:
    return ("true" if v else "false") if isinstance(v, bool) else v


def _is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine (a loopback address or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _Common:
    """Settings shared by both clients."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 8085,
        token: str | None = None,
        *,
        ws_port: int | None = None,
        format: str | None = "json",
        timeout: float = 120.0,
        busy_retries: int = 10,
    ) -> None:
        self.host = "127.0.0.1" if host == "localhost" else host
        self.port = port
        self.ws_port = ws_port if ws_port is not None else port + 1
        self.token = token or None
        self.format = format
        self.timeout = timeout
        self.busy_retries = busy_retries
        self.base_url = f"http://{self.host}:{port}"
        self._headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if _is_loopback(self.host):
            # colonyd gzips big answers for clients that accept it; on the same machine that
            # costs more than the bytes it saves.
            self._headers["Accept-Encoding"] = "identity"

    def _params(self, query: dict[str, Any] | None) -> dict[str, Any]:
        params = {k: _query_value(v) for k, v in (query or {}).items()}
        if self.format:
            params["format"] = self.format
        return params

    @staticmethod
    def _decoded(r: httpx.Response) -> tuple[int, Any, str | None]:
        """An answer as its status, its decoded body and its Retry-After header."""
        ctype = r.headers.get("content-type", "")
        value: Any = r.json() if "json" in ctype else r.text
        return r.status_code, value, r.headers.get("retry-after")

    def _answer(self, r: httpx.Response) -> tuple[Any, float | None]:
        """The answer's value, or (None, seconds to wait) for a retryable 503."""
        return self._value(*self._decoded(r))

    def _value(self, status: int, value: Any, retry_after: str | None) -> tuple[Any, float | None]:
        """:meth:`_answer` of a decoded body: the value, (None, wait) or the error raised."""
        if isinstance(value, dict) and isinstance(value.get("error"), str):
            err = ColonyError.from_body(value, status)
            if status == 503 and err.code in ("queue_full", "game_loading"):
                return None, float(retry_after or 1)
            raise err
        if status >= 400:
            raise ColonyError(f"http_{status}", str(value)[:500], {}, status)
        return value, None

    def _unreachable(self, e: Exception) -> ColonyError:
        detail = f"cannot reach the Colony service at {self.base_url}: {e}"
        return ColonyError("unreachable", detail)


def _page_items(page: Any) -> tuple[list[Any], int]:
    if isinstance(page, list):
        return page, len(page)
    return list(page.get("items", [])), int(page.get("total", 0))


class SyncBase(_Common):
    """The blocking transport (an ``httpx.Client`` with keep-alive)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._http = httpx.Client(
            base_url=self.base_url, headers=self._headers, timeout=self.timeout
        )

    def _call(
        self, method: str, path: str, query: dict[str, Any] | None, data: dict[str, Any] | None
    ) -> Any:
        for attempt in range(self.busy_retries + 1):
            status, body, retry_after = self._request(method, path, query, data)
            value, wait = self._value(status, body, retry_after)
            if wait is None:
                return value
            if attempt < self.busy_retries:
                time.sleep(min(wait, 1.0))
        raise ColonyError.from_body(body, status)

    def _request(
        self, method: str, path: str, query: dict[str, Any] | None, data: dict[str, Any] | None
    ) -> tuple[int, Any, str | None]:
        """One request (the transport): the status, the decoded body and the Retry-After
        header."""
        try:
            r = self._http.request(method, path, params=self._params(query), json=data)
        except httpx.TransportError as e:
            raise self._unreachable(e) from e
        return self._decoded(r)

    def iterate(
        self, route: Callable[..., Any], *, page_size: int = 100, **params: Any
    ) -> Iterator[Any]:
        """Every item of a paginated route, page by page (``colony.iterate(colony.trees)``)."""
        offset = 0
        while True:
            items, total = _page_items(route(limit=page_size, offset=offset, **params))
            yield from items
            offset += len(items)
            if not items or offset >= total:
                return

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncBase(_Common):
    """The asyncio transport (an ``httpx.AsyncClient``)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._http = httpx.AsyncClient(
            base_url=self.base_url, headers=self._headers, timeout=self.timeout
        )

    async def _call(
        self, method: str, path: str, query: dict[str, Any] | None, data: dict[str, Any] | None
    ) -> Any:
        for attempt in range(self.busy_retries + 1):
            try:
                r = await self._http.request(method, path, params=self._params(query), json=data)
            except httpx.TransportError as e:
                raise self._unreachable(e) from e
            value, wait = self._answer(r)
            if wait is None:
                return value
            if attempt < self.busy_retries:
                await asyncio.sleep(min(wait, 1.0))
        raise ColonyError.from_body(r.json(), r.status_code)

    async def iterate(
        self, route: Callable[..., Any], *, page_size: int = 100, **params: Any
    ) -> AsyncIterator[Any]:
        """Every item of a paginated route (``async for t in colony.iterate(colony.trees)``)."""
        offset = 0
        while True:
            items, total = _page_items(await route(limit=page_size, offset=offset, **params))
            for item in items:
                yield item
            offset += len(items)
            if not items or offset >= total:
                return

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
