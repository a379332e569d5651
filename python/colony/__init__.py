"""Colony: a Python client for the Colony game service (colonyd).

- :class:`Colony` / :class:`AsyncColony`: a typed method per route, nested JSON, errors raised
  as :class:`ColonyError`, pagination, ``events()`` over the WebSocket.
- :func:`spawn`: start colonyd games on free loopback ports from Python.
- :mod:`colony.gym`: the Gymnasium environment ``Colony-v0`` (``pip install colony[gym]``).
"""

from ._base import UNSET
from .client import AsyncColony, Colony
from .errors import ColonyError
from .events import ErrorFrame, Event, State
from .spawn import Game, find_colonyd, spawn

__all__ = [
    "UNSET",
    "AsyncColony",
    "Colony",
    "ColonyError",
    "ErrorFrame",
    "Event",
    "Game",
    "State",
    "find_colonyd",
    "spawn",
]
