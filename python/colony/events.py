"""The WebSocket channel (``ws://HOST:WS_PORT/api/ws``) as an iterator of typed events.

Frames are ``{"type", "payload"}``: ``event`` frames become :class:`Event`, ``state`` frames
:class:`State` (the agent state, sent on connect and on every change; yielded when asked for),
``error`` frames :class:`ErrorFrame`; ``pong`` is dropped. When the connection drops (colonyd
restarted, network, ``slow_consumer``), the stream reconnects as the contract says: backoff from
1 s doubling to 30 s with +/-20% jitter, reset once connected; the first ``state`` frame after a
reconnect is taken as the truth (:attr:`EventStream.state`). Events sent while disconnected are
lost: the channel has no replay. The client never sends heartbeats, so it does not count as an
attached connector.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import connect

from .errors import ColonyError

#: Backoff between reconnection attempts (seconds): first, cap, jitter share.
BACKOFF_FIRST, BACKOFF_MAX, JITTER = 1.0, 30.0, 0.2


@dataclass(frozen=True)
class Event:
    """A game event: ``name`` (``building.placed``...), the game ``day``, ``timestamp`` (Unix
    milliseconds) and its ``data`` (README, "Events and their data")."""

    name: str
    day: int
    timestamp: int
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class State:
    """The agent state (``mode``, ``goal``, ``ready``, ``epoch``, the pending request...)."""

    data: dict[str, Any]


@dataclass(frozen=True)
class ErrorFrame:
    """An ``error`` frame (never fatal): the service's ``code`` and ``detail``."""

    code: str
    detail: str


Frame = Event | State | ErrorFrame


def parse_frame(text: str | bytes) -> Frame | None:
    """The typed frame of a text frame (``None`` for ``pong`` and unknown types)."""
    msg = json.loads(text)
    kind, payload = msg.get("type"), msg.get("payload") or {}
    if kind == "event":
        return Event(
            str(payload.get("event", "")),
            int(payload.get("day", 0)),
            int(payload.get("timestamp", 0)),
            dict(payload.get("data") or {}),
        )
    if kind == "state":
        return State(dict(payload))
    if kind == "error":
        e = ColonyError.from_body(payload)
        return ErrorFrame(e.code, e.detail)
    return None


def _wanted(frame: Frame, names: Sequence[str], include_state: bool) -> bool:
    if isinstance(frame, Event):
        return not names or any(frame.name.startswith(n) for n in names)
    if isinstance(frame, State):
        return include_state
    return True


class _Backoff:
    def __init__(self) -> None:
        self.delay = BACKOFF_FIRST

    def next(self) -> float:
        d = self.delay * random.uniform(1 - JITTER, 1 + JITTER)
        self.delay = min(self.delay * 2, BACKOFF_MAX)
        return d

    def reset(self) -> None:
        self.delay = BACKOFF_FIRST


_DROPPED = (ConnectionClosed, OSError, InvalidHandshake, TimeoutError)


class _StreamBase:
    def __init__(
        self,
        host: str,
        ws_port: int,
        token: str | None = None,
        *,
        names: Sequence[str] = (),
        include_state: bool = False,
        reconnect: bool = True,
        idle_timeout: float | None = None,
    ) -> None:
        self.url = f"ws://{host}:{ws_port}/api/ws"
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.names = tuple(names)
        self.include_state = include_state
        self.reconnect = reconnect
        self.idle_timeout = idle_timeout
        #: Times the stream connected again after a drop.
        self.reconnects = 0
        #: The latest agent state (the first frame of each connection is the truth).
        self.state: dict[str, Any] | None = None
        self._connected_once = False
        self._backoff = _Backoff()

    def _on_connect(self) -> None:
        if self._connected_once:
            self.reconnects += 1
        self._connected_once = True
        self._backoff.reset()

    def _keep(self, text: str | bytes) -> Frame | None:
        frame = parse_frame(text)
        if isinstance(frame, State):
            self.state = frame.data
        if frame is not None and _wanted(frame, self.names, self.include_state):
            return frame
        return None

    def _give_up(self, e: Exception) -> ColonyError:
        return ColonyError("unreachable", f"WebSocket {self.url}: {e}")


class EventStream(_StreamBase):
    """Blocking iterator of frames; ``idle_timeout`` seconds without a wanted frame ends it."""

    def __iter__(self) -> Iterator[Frame]:
        last = time.monotonic()
        while True:
            try:
                with connect(self.url, additional_headers=self.headers, open_timeout=10) as ws:
                    self._on_connect()
                    while True:
                        wait = None
                        if self.idle_timeout is not None:
                            wait = max(0.0, self.idle_timeout - (time.monotonic() - last))
                        try:
                            text = ws.recv(timeout=wait)
                        except TimeoutError:
                            return
                        frame = self._keep(text)
                        if frame is not None:
                            last = time.monotonic()
                            yield frame
            except InvalidURI as e:
                raise self._give_up(e) from e
            except _DROPPED as e:
                if not self.reconnect:
                    raise self._give_up(e) from e
                if self.idle_timeout is not None and time.monotonic() - last > self.idle_timeout:
                    return
                time.sleep(self._backoff.next())


class AsyncEventStream(_StreamBase):
    """The asyncio twin: ``async for frame in colony.events()``."""

    async def __aiter__(self) -> AsyncIterator[Frame]:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            try:
                async with aconnect(self.url, additional_headers=self.headers) as ws:
                    self._on_connect()
                    while True:
                        wait = None
                        if self.idle_timeout is not None:
                            wait = max(0.0, self.idle_timeout - (loop.time() - last))
                        try:
                            text = await asyncio.wait_for(ws.recv(), wait)
                        except asyncio.TimeoutError:
                            return
                        frame = self._keep(text)
                        if frame is not None:
                            last = loop.time()
                            yield frame
            except InvalidURI as e:
                raise self._give_up(e) from e
            except _DROPPED as e:
                if not self.reconnect:
                    raise self._give_up(e) from e
                if self.idle_timeout is not None and loop.time() - last > self.idle_timeout:
                    return
                await asyncio.sleep(self._backoff.next())
