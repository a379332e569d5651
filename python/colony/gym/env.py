"""``Colony-v0``: a Gymnasium environment over a colonyd game.

``reset(seed=...)`` starts a new game (``POST /api/game/new`` with the seed, faction, mode and map
size; the gate opened and the game paused, as ``colony eval`` starts an episode's game; advanced to
the next whole hour if a tick ran before the pause, so the start does not depend on how fast the
requests went), ``step(action)`` carries out one action (actions.py) and
then advances the game by ``turn_hours`` (``POST /api/game/advance``). Observations: observe.py;
reward: reward.py (the change of the score ``POST /api/score`` gives, so an episode's rewards sum to
the score ``colony eval`` gives the same game). ``terminated`` when everyone has died,
``truncated`` at ``horizon_days``.

Each environment starts its own colonyd (``colony.spawn``) on first reset unless it is given the
``port`` of a running service (whose game it then replaces on every reset).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..client import Colony
from ..errors import ColonyError
from ..spawn import Game
from ._client import StepClient
from .actions import Actor, Layout
from .observe import COLONY_FIELDS, Observer, observation_space
from .reward import ScoreTerm, score, survive_terms

DEFAULT_PREFABS = {
    "Folktails": (
        "WaterPump",
        "SmallTank",
        "Lodge",
        "GathererFlag",
        "LumberjackFlag",
        "EfficientFarmHouse",
        "SmallWarehouse",
    ),
    "IronTeeth": (
        "DeepWaterPump",
        "SmallTank",
        "Barrack",
        "GathererFlag",
        "LumberjackFlag",
        "FarmHouse",
        "BreedingPod",
    ),
}


def _map_size(map_size: int | str) -> tuple[int, int]:
    text = str(map_size).lower()
    if "x" in text:
        w, h = text.split("x", 1)
        return int(w), int(h)
    return int(text), int(text)


class ColonyEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """The colony as a Gymnasium environment (see the module's doc and docs/python.md).

    Args:
        map_size: side (``64``) or ``"WxH"``; 32-256. Smaller maps step faster.
        faction, mode: the game's (``Folktails``/``IronTeeth``, ``Easy``/``Normal``/``Hard``).
        turn_hours: game hours advanced after each action.
        horizon_days: the episode is truncated after this many game days.
        prefabs: base names (``"Lodge"``) or full names of the buildings the agent may place;
            default: the faction's starting set (pump, tank, housing, gatherer, lumberjack, farm).
        crops: what planting areas get (``"Carrot"``...).
        area: side of the cutting and planting squares.
        mask_regions: the map is cut into ``R x R`` regions for the placement search (the
            costliest part of a step); 0 offers no placement in the mask.
        score_terms: the reward's score terms (default ``survive-60``'s, with ``horizon_days`` as
            the days target); the score is ``colony eval``'s for these terms and the horizon.
        host, port, token: use a running colonyd instead of starting one.
        colonyd: the binary to start (default ``$COLONYD`` or PATH).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        map_size: int | str = 64,
        faction: str = "Folktails",
        mode: str = "Normal",
        turn_hours: float = 24.0,
        horizon_days: float = 60.0,
        prefabs: Sequence[str] | None = None,
        crops: Sequence[str] = ("Carrot", "Potato"),
        area: int = 6,
        mask_regions: int = 2,
        score_terms: Sequence[ScoreTerm] | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        token: str | None = None,
        colonyd: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.width, self.height = _map_size(map_size)
        self.faction, self.mode = faction, mode
        self.turn_hours, self.horizon_days = float(turn_hours), float(horizon_days)
        base = prefabs if prefabs is not None else DEFAULT_PREFABS.get(faction, ())
        self.prefabs = [p if "." in p or p == "Path" else f"{p}.{faction}" for p in base]
        self.crops = list(crops)
        self.area, self.mask_regions = int(area), int(mask_regions)
        self.terms = list(score_terms or survive_terms(self.horizon_days))
        self.render_mode = render_mode
        self._host, self._port, self._token, self._colonyd = host, port, token, colonyd
        self._game: Game | None = None
        self._client: Colony | None = None
        self.layout = Layout(self.width, self.height, len(self.prefabs), len(self.crops))
        self.action_space = spaces.Discrete(self.layout.n)
        self.observation_space = observation_space(self.width, self.height)
        self._obs: dict[str, np.ndarray] | None = None
        self._mask: np.ndarray | None = None
        self._hours = 0.0
        self._score = 0.0

    # The service ---------------------------------------------------------------------------

    @property
    def client(self) -> Colony:
        """The client of this environment's colonyd (started on first use; a ``StepClient``)."""
        if self._client is None:
            if self._port is None:
                g = self._game = Game(map=32, ready=True, binary=self._colonyd)
                self._client = StepClient("127.0.0.1", g.http_port, g.token, ws_port=g.ws_port)
            else:
                self._client = StepClient(self._host, self._port, self._token)
        return self._client

    def _new_game(self, seed: int) -> None:
        c = self.client
        size = f"{self.width}x{self.height}"
        c.game_new(seed=seed, faction=self.faction, mode=self.mode, map=size)
        c.ready(ready=True)
        c.set_speed(speed=0)
        # The game ran at speed 1 between the gate opening and the pause. A tick lasts 0.6 s at
        # speed 1, so normally none ran and the game starts at the start hour, as `colony eval`'s
        # does (its rows, and so the score, are then the same); if one did, advance to the next
        # whole hour so every reset with this seed starts from the same tick.
        hour = float(c.time()["hour"])
        if hour != math.floor(hour):
            c.game_advance(hours=math.floor(hour) + 1 - hour)

    def _scored(self) -> float:
        """The game's score so far in 0-1 (``POST /api/score``)."""
        return float(score(self.client, self.terms, self.horizon_days)["score"]) / 100

    def _over(self) -> bool:
        """Whether everyone has died (the summary's ``gameOver``, or nobody alive)."""
        assert self._obs is not None
        c = dict(zip(COLONY_FIELDS, self._obs["colony"].tolist(), strict=True))
        return bool(c["game_over"]) or c["adults"] + c["children"] + c["bots"] == 0

    def _read(self) -> None:
        self._obs = self._observer.observe()
        self._mask = self._actor.mask(self._obs, self._unlocked)

    def _info(self, **extra: Any) -> dict[str, Any]:
        assert self._mask is not None and self._obs is not None
        return {
            "action_mask": self._mask,
            "score": round(100 * self._score, 3),
            "day": int(self._obs["colony"][0]),
            **extra,
        }

    # Gymnasium -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        self._new_game(game_seed)
        c = self.client
        self._observer = Observer(c, self.width, self.height)
        self._unlocked = {
            p["name"] for p in c.prefabs() if p.get("unlocked", True) or "scienceCost" not in p
        }
        self._actor = Actor(c, self.layout, self.prefabs, self.crops, self.area, self.mask_regions)
        self._hours = 0.0
        self._read()
        self._score = self._scored()
        assert self._obs is not None
        return self._obs, self._info(seed=game_seed)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._obs is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        error = None
        kind = "invalid"
        try:
            kind = self.layout.decode(int(action)).kind
            self._actor.act(int(action), self._obs["terrain"], self._observer.dc_entrance())
        except ColonyError as e:
            error = {"code": e.code, "detail": e.detail, **e.extras}
        except ValueError as e:
            error = {"code": "invalid_action", "detail": str(e)}
        hours = min(self.turn_hours, self.horizon_days * 24 - self._hours)
        if hours > 0:
            self.client.game_advance(hours=hours)
            self._hours += hours
        self._read()
        now = self._scored()
        reward, self._score = now - self._score, now
        terminated = self._over()
        truncated = not terminated and self._hours >= self.horizon_days * 24 - 1e-9
        assert self._obs is not None
        info = self._info(action=kind, error=error)
        return self._obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The current mask (the method name maskable-PPO implementations call)."""
        assert self._mask is not None
        return self._mask

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._obs is None:
            return None
        o = self._obs
        chars = np.full(o["terrain"].shape, ".", dtype="<U1")
        chars[o["trees"] > 0] = "T"
        chars[o["crops"] > 0] = "c"
        chars[o["bushes"] > 0] = "b"
        chars[o["water"] > 0] = "~"
        chars[o["paths"] > 0] = "#"
        chars[o["buildings"] > 0] = "B"
        return "\n".join("".join(row) for row in chars[::-1])

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._game is not None:
            self._game.stop()
            self._game = None


def make_vector(num_envs: int, **kwargs: Any) -> gym.vector.AsyncVectorEnv:
    """``num_envs`` environments in their own processes, each with its own colonyd."""

    def make() -> ColonyEnv:
        return ColonyEnv(**kwargs)

    return gym.vector.AsyncVectorEnv([make for _ in range(num_envs)])
