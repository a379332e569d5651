"""``Colony-v0``'s game in-process (``backend="engine"``): ``colony_engine.Env``, the environment
stepped in Rust (crates/engine) with no colonyd, HTTP or JSON. The rules are the HTTP backend's
(``http_game.py``): the same seed and actions give the same observations, masks, rewards and
state hashes (tests/test_engine.py).
"""

from __future__ import annotations

from typing import Any

from ..errors import ColonyError
from .actions import Layout
from .backend import Readings
from .settings import GameSettings


class EngineGame(Readings):
    """One environment's game in this process."""

    def __init__(self, settings: GameSettings) -> None:
        import colony_engine

        self.layout = Layout(
            settings.width, settings.height, len(settings.prefabs), len(settings.crops)
        )
        self._env = colony_engine.Env(settings)

    @property
    def score(self) -> float:
        return float(self._env.score)

    @property
    def hours(self) -> float:
        """Game hours advanced since the reset."""
        return float(self._env.hours)

    def reset(self, seed: int) -> None:
        self._env.reset(seed)
        self._read()

    def prefetch(self, seed: int) -> None:
        """Makes the game of ``seed`` on the engine's background thread (generating a new map is
        most of a reset), so the reset to it copies the made game."""
        self._env.prefetch(seed)

    def step(self, action: int) -> tuple[float, bool, bool, str, dict[str, Any] | None]:
        reward, terminated, truncated, kind, error = self._env.step(int(action))
        self._read()
        return reward, terminated, truncated, kind, error

    def _read(self) -> None:
        self._obs = self._env.observation()
        self._mask = self._env.mask()

    def state_hash(self) -> str:
        h = self._env.state_hash()
        if h is None:
            raise ColonyError("game_not_ready", "no game yet: call reset() first")
        return str(h)

    def save(self) -> bytes:
        """The game as colonyd saves it (``POST /api/game/load`` takes it back)."""
        return bytes(self._env.save())

    def close(self) -> None:
        pass
