"""``colony.gym.make_vector(n, backend="engine")``: ``n`` games stepped together in Rust
(``colony_engine.VecEnv``) on a thread pool, the GIL released while they step, observations and
masks written straight into stacked arrays (first axis the environments).

Gymnasium 1.x's ``VectorEnv`` API with its default autoreset (``AutoresetMode.NEXT_STEP``): the
step after an environment ended resets it instead of acting and reports the new game's first
observation with reward 0. ``reset(seed=s)`` gives environment ``i`` the seed ``s + i``; its
``k``-th automatic reset after that plays ``s + i + k * n``. ``infos`` holds, per environment,
``action_mask`` (``(n, actions)`` int8), ``score`` (0-100), ``day``, and after a step ``action``
(the kind, ``"reset"`` for an automatic reset) and ``error`` (a dict or None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .actions import Layout
from .observe import observation_space
from .settings import GameSettings


class EngineVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` in-process games (the keyword arguments are ``ColonyEnv``'s, plus
    ``threads``: the pool's size, 0 for one thread per core)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, threads: int = 0, **kwargs: Any) -> None:
        import colony_engine

        cfg = GameSettings.of(**kwargs)
        self.layout = Layout(cfg.width, cfg.height, len(cfg.prefabs), len(cfg.crops))
        self._vec = colony_engine.VecEnv(num_envs, cfg, threads)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(cfg.width, cfg.height)
        self.single_action_space = spaces.Discrete(self.layout.n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False

    def _infos(self, **extra: Any) -> dict[str, Any]:
        return {
            "action_mask": self._vec.masks(),
            "score": np.round(100 * self._vec.scores(), 3),
            "day": np.array(self._vec.days(), np.int64),
            **extra,
        }

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None:
            rng = np.random.default_rng()
            first = int(rng.integers(0, 2**31 - 1))
        elif isinstance(seed, int):
            first = seed
        else:
            seeds = [int(s) for s in seed]
            first = seeds[0]
            if seeds != list(range(first, first + self.num_envs)):
                raise ValueError(
                    f"seeds must be {self.num_envs} consecutive numbers (environment i plays "
                    f"seed + i); got {seeds}"
                )
        self._vec.reset(first)
        self._started = True
        return self._vec.observations(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        a = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        rewards, terminated, truncated, kinds, errors = self._vec.step(a)
        infos = self._infos(
            action=np.array(kinds, dtype=object), error=np.array(errors, dtype=object)
        )
        return self._vec.observations(), rewards, terminated, truncated, infos

    def state_hashes(self) -> list[str]:
        """Each game's state hash (``GET /api/game/hash``'s)."""
        return [str(h) for h in self._vec.state_hashes()]

    def close_extras(self, **kwargs: Any) -> None:
        pass
