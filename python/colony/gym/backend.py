"""What ``ColonyEnv`` asks of a game backend (``http_game.HttpGame``, ``engine_game.EngineGame``),
and the part both share: the observation and the mask read after each reset and step."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class GameBackend(Protocol):
    """A backend: one game played by ``Colony-v0``'s rules."""

    score: float

    @property
    def hours(self) -> float: ...

    def reset(self, seed: int) -> None: ...

    def prefetch(self, seed: int) -> None:
        """Has the game of ``seed`` made ahead for a reset to it to come, where the backend can."""
        ...

    def step(self, action: int) -> tuple[float, bool, bool, str, dict[str, Any] | None]: ...

    def observation(self) -> dict[str, np.ndarray]: ...

    def mask(self) -> np.ndarray: ...

    def state_hash(self) -> str: ...

    def close(self) -> None: ...


class Readings:
    """The observation and mask a backend read last (``_obs``, ``_mask``, set by its reads)."""

    _obs: dict[str, np.ndarray] | None = None
    _mask: np.ndarray | None = None

    def observation(self) -> dict[str, np.ndarray]:
        assert self._obs is not None, "reset() first"
        return self._obs

    def mask(self) -> np.ndarray:
        assert self._mask is not None, "reset() first"
        return self._mask
