"""``Colony-v0``'s game over HTTP (``backend="http"``): a colonyd (started with ``colony.spawn``
unless a running one is given) driven through its routes.

``reset(seed)`` starts a new game (``POST /api/game/new`` with the seed, faction, mode and map
size; the gate opened and the game paused, as ``colony eval`` starts an episode's game; advanced
to the next whole hour if a tick ran before the pause, so the start does not depend on how fast
the requests went). A step carries out one action (actions.py), advances ``turn_hours``
(``POST /api/game/advance``, cut at the horizon) when the action was the wait (0) or the turn's
``actions_per_turn``-th, reads the observation (observe.py), the mask and the score
(reward.py). The in-process engine (``engine_game.py``) plays the same rules; a test holds the
two together.
"""

from __future__ import annotations

import math
from typing import Any

from ..client import Colony
from ..errors import ColonyError
from ..spawn import Game
from ._client import StepClient
from .actions import Actor, Layout
from .backend import Readings
from .observe import COLONY_FIELDS, Observer
from .reward import score
from .settings import GameSettings


class HttpGame(Readings):
    """One environment's game on a colonyd."""

    def __init__(
        self,
        settings: GameSettings,
        host: str = "127.0.0.1",
        port: int | None = None,
        token: str | None = None,
        colonyd: str | None = None,
    ) -> None:
        self.settings = settings
        self.layout = Layout(
            settings.width, settings.height, len(settings.prefabs), len(settings.crops)
        )
        self._host, self._port, self._token, self._colonyd = host, port, token, colonyd
        self._game: Game | None = None
        self._client: Colony | None = None
        self._hours = 0.0
        self._acted = 0
        self.score = 0.0

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

    def prefetch(self, seed: int) -> None:
        """Nothing to make ahead: colonyd makes the game when ``POST /api/game/new`` asks."""

    def reset(self, seed: int) -> None:
        c, cfg = self.client, self.settings
        c.game_new(seed=seed, faction=cfg.faction, mode=cfg.mode, map=f"{cfg.width}x{cfg.height}")
        c.ready(ready=True)
        c.set_speed(speed=0)
        # The game ran at speed 1 between the gate opening and the pause. A tick lasts 0.6 s at
        # speed 1, so normally none ran and the game starts at the start hour, as `colony eval`'s
        # does (its rows, and so the score, are then the same); if one did, advance to the next
        # whole hour so every reset with this seed starts from the same tick.
        hour = float(c.time()["hour"])
        if hour != math.floor(hour):
            c.game_advance(hours=math.floor(hour) + 1 - hour)
        self._observer = Observer(c, cfg.width, cfg.height)
        self._actor = Actor(
            c, self.layout, list(cfg.prefabs), list(cfg.crops), cfg.area, cfg.join_paths
        )
        self._hours = 0.0
        self._acted = 0
        self._read()
        self.score = self._scored()

    def step(self, action: int) -> tuple[float, bool, bool, str, dict[str, Any] | None]:
        error = None
        kind = "invalid"
        assert self._obs is not None
        try:
            kind = self.layout.decode(int(action)).kind
            self._actor.act(int(action), self._obs["terrain"], self._observer.dc_entrance())
        except ColonyError as e:
            error = {"code": e.code, "detail": e.detail, **e.extras}
        except ValueError as e:
            error = {"code": "invalid_action", "detail": str(e)}
        cfg = self.settings
        self._acted += 1
        advance = int(action) == 0 or self._acted >= cfg.actions_per_turn
        hours = min(cfg.turn_hours, cfg.horizon_days * 24 - self._hours)
        if advance and hours > 0:
            self._acted = 0
            self.client.game_advance(hours=hours)
            self._hours += hours
        self._read()
        now = self._scored()
        reward, self.score = now - self.score, now
        terminated = self._over()
        truncated = not terminated and self._hours >= cfg.horizon_days * 24 - 1e-9
        return reward, terminated, truncated, kind, error

    @property
    def hours(self) -> float:
        """Game hours advanced since the reset."""
        return self._hours

    def state_hash(self) -> str:
        return str(self.client.game_hash()["stateHash"])

    def _read(self) -> None:
        self._obs = self._observer.observe()
        self._mask = self._actor.mask(self._obs)

    def _scored(self) -> float:
        """The game's score so far in 0-1 (``POST /api/score``)."""
        cfg = self.settings
        return float(score(self.client, list(cfg.terms), cfg.horizon_days)["score"]) / 100

    def _over(self) -> bool:
        """Whether everyone has died (the summary's ``gameOver``, or nobody alive)."""
        assert self._obs is not None
        c = dict(zip(COLONY_FIELDS, self._obs["colony"].tolist(), strict=True))
        return bool(c["game_over"]) or c["adults"] + c["children"] + c["bots"] == 0

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._game is not None:
            self._game.stop()
            self._game = None
