"""``Colony-v0``: a Gymnasium environment of the colony game, on either of two backends.

``backend="engine"`` (the default when the ``colony_engine`` extension module is installed:
``pip install ./crates/py``) steps the game in this process, in Rust (``engine_game.py``);
``backend="http"`` drives a colonyd through its routes (``http_game.py``), its own (started on
first reset) or a running one given by ``port``. Both play the same rules: ``reset(seed=...)``
starts a new game of that seed, faction, mode and map size; ``step(action)`` carries out one
action (actions.py) and advances ``turn_hours``; the observation is observe.py's, the mask every
action the game would take (see actions.py), the reward the change of the score ``colony eval``
gives the same game (reward.py). ``terminated`` when everyone has died, ``truncated`` at
``horizon_days``. The same seed and actions give the same observations, rewards and state hashes
on both (tests/test_engine.py).
"""

from __future__ import annotations

import copy
import importlib.util
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .actions import Layout
from .backend import GameBackend
from .observe import observation_space
from .reward import ScoreTerm
from .settings import GameSettings


def draw_seed(rng: np.random.Generator) -> int:
    """The game seed a reset without a seed plays, drawn from the environment's ``np_random``."""
    return int(rng.integers(0, 2**31 - 1))


def engine_available() -> bool:
    """Whether the in-process engine (``colony_engine``) is installed."""
    return importlib.util.find_spec("colony_engine") is not None


class ColonyEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """The colony as a Gymnasium environment (see the module's doc and docs/python.md).

    Args:
        map_size: side (``128``, survive-60's) or ``"WxH"``; 32-256. Smaller maps step faster.
        faction, mode: the game's (``Folktails``/``IronTeeth``, ``Easy``/``Normal``/``Hard``).
        turn_hours: game hours a turn advances: on the wait (action 0), or after
            ``actions_per_turn`` actions in a row.
        actions_per_turn: actions an agent may take before the game advances by itself (1:
            every action advances, as before this version).
        join_paths: join each placed building's doorstep to the district center's by a path
            (when one can be laid), so a placement is a building that gets built.
        horizon_days: the episode is truncated after this many game days.
        prefabs: base names (``"Lodge"``) or full names of the buildings the agent may place;
            default: the faction's starting set (pump, tank, housing, gatherer, lumberjack, farm).
        crops: what planting areas get (``"Carrot"``...).
        area: side of the cutting and planting squares.
        score_terms: the reward's score terms (default ``survive-60``'s, with ``horizon_days`` as
            the days target); the score is ``colony eval``'s for these terms and the horizon.
        backend: ``"engine"`` (in this process; the default when ``colony_engine`` is
            installed) or ``"http"`` (a colonyd).
        host, port, token: ``backend="http"`` on a running colonyd instead of starting one.
        colonyd: the binary ``backend="http"`` starts (default ``$COLONYD`` or PATH).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        map_size: int | str = 128,
        faction: str = "Folktails",
        mode: str = "Normal",
        turn_hours: float = 12.0,
        horizon_days: float = 60.0,
        prefabs: Sequence[str] | None = None,
        crops: Sequence[str] = ("Carrot", "Potato"),
        area: int = 6,
        score_terms: Sequence[ScoreTerm] | None = None,
        actions_per_turn: int = 8,
        join_paths: bool = True,
        backend: str | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        token: str | None = None,
        colonyd: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        cfg = self.settings = GameSettings.of(
            map_size,
            faction,
            mode,
            turn_hours,
            horizon_days,
            prefabs,
            crops,
            area,
            score_terms,
            actions_per_turn,
            join_paths,
        )
        self.width, self.height = cfg.width, cfg.height
        self.faction, self.mode = faction, mode
        self.turn_hours, self.horizon_days = cfg.turn_hours, cfg.horizon_days
        self.prefabs, self.crops = list(cfg.prefabs), list(cfg.crops)
        self.area, self.terms = cfg.area, list(cfg.terms)
        self.render_mode = render_mode
        if backend is None:
            backend = "engine" if engine_available() and port is None else "http"
        if backend not in ("engine", "http"):
            raise ValueError(f"backend must be 'engine' or 'http'; got {backend!r}")
        self.backend = backend
        self._game: GameBackend
        if backend == "engine":
            from .engine_game import EngineGame

            self._game = EngineGame(cfg)
        else:
            from .http_game import HttpGame

            self._game = HttpGame(cfg, host=host, port=port, token=token, colonyd=colonyd)
        self.layout = Layout(self.width, self.height, len(self.prefabs), len(self.crops))
        self.action_space = spaces.Discrete(self.layout.n)
        self.observation_space = observation_space(self.width, self.height)
        self._started = False

    @property
    def client(self) -> Any:
        """``backend="http"``: the client of this environment's colonyd."""
        from .http_game import HttpGame

        if not isinstance(self._game, HttpGame):
            raise AttributeError("the engine backend has no client: backend='http' has one")
        return self._game.client

    def state_hash(self) -> str:
        """The game's state hash (``GET /api/game/hash``'s ``stateHash``)."""
        return self._game.state_hash()

    def _info(self, **extra: Any) -> dict[str, Any]:
        obs = self._game.observation()
        return {
            "action_mask": self._game.mask(),
            "score": round(100 * self._game.score, 3),
            "day": int(obs["colony"][0]),
            "hours": self._game.hours,
            **extra,
        }

    # Gymnasium -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else draw_seed(self.np_random)
        self._game.reset(game_seed)
        # A reset without a seed (or the first reset: training loops seed only that one) has the
        # game of the next such reset made ahead. Its seed is drawn from np_random, which nothing
        # else draws from: the draw is made on a copy, so np_random is left as it is. A caller
        # who seeds every reset has nothing made ahead past the first.
        if seed is None or not self._started:
            self._game.prefetch(draw_seed(copy.deepcopy(self.np_random)))
        self._started = True
        return self._game.observation(), self._info(seed=game_seed)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        reward, terminated, truncated, kind, error = self._game.step(int(action))
        info = self._info(action=kind, error=error)
        return self._game.observation(), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The current mask (the method name maskable-PPO implementations call)."""
        return self._game.mask()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or not self._started:
            return None
        o = self._game.observation()
        chars = np.full(o["terrain"].shape, ".", dtype="<U1")
        chars[o["trees"] > 0] = "T"
        chars[o["crops"] > 0] = "c"
        chars[o["bushes"] > 0] = "b"
        chars[o["water"] > 0] = "~"
        chars[o["paths"] > 0] = "#"
        chars[o["buildings"] > 0] = "B"
        return "\n".join("".join(row) for row in chars[::-1])

    def close(self) -> None:
        self._game.close()


def make_vector(num_envs: int, backend: str | None = None, **kwargs: Any) -> gym.vector.VectorEnv:
    """``num_envs`` environments stepped together: ``backend="engine"`` (the default when the
    engine is installed) in one Rust vector on a thread pool (``vector.py``), ``"http"`` each in
    its own process with its own colonyd (Gymnasium's ``AsyncVectorEnv``)."""
    if backend is None:
        backend = "engine" if engine_available() and kwargs.get("port") is None else "http"
    if backend == "engine":
        from .vector import EngineVectorEnv

        return EngineVectorEnv(num_envs, **kwargs)

    def make() -> ColonyEnv:
        return ColonyEnv(backend="http", **kwargs)

    return gym.vector.AsyncVectorEnv([make for _ in range(num_envs)])
