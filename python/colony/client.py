"""The clients: :class:`Colony` (blocking) and :class:`AsyncColony` (asyncio).

Both carry a typed method per route (generated into ``_routes.py`` from the service's OpenAPI
document), the nested ``json`` format by default, :class:`~colony.errors.ColonyError` on any
error body, ``iterate`` over paginated routes, and ``events()`` over the WebSocket.

>>> with Colony("127.0.0.1", 8085) as colony:          # doctest: +SKIP
...     colony.set_speed(speed=0)
...     colony.summary()["projections"]["waterDays"]
"""

from __future__ import annotations

from ._routes import AsyncRoutes, Routes
from .events import AsyncEventStream, EventStream


class Colony(Routes):
    """A blocking client: ``Colony(host, port, token, ws_port=port + 1, format="json")``."""

    def events(
        self,
        *names: str,
        include_state: bool = False,
        reconnect: bool = True,
        idle_timeout: float | None = None,
    ) -> EventStream:
        """The WebSocket's events (those whose name starts with one of ``names``, or all)."""
        return EventStream(
            self.host,
            self.ws_port,
            self.token,
            names=names,
            include_state=include_state,
            reconnect=reconnect,
            idle_timeout=idle_timeout,
        )


class AsyncColony(AsyncRoutes):
    """The asyncio twin of :class:`Colony`: the same methods, awaited."""

    def events(
        self,
        *names: str,
        include_state: bool = False,
        reconnect: bool = True,
        idle_timeout: float | None = None,
    ) -> AsyncEventStream:
        """The WebSocket's events as an async iterator."""
        return AsyncEventStream(
            self.host,
            self.ws_port,
            self.token,
            names=names,
            include_state=include_state,
            reconnect=reconnect,
            idle_timeout=idle_timeout,
        )
