"""Actions of ``Colony-v0``: one flat ``Discrete`` space, its decoding, the mask and the calls.

Layout (``W x H`` map, ``P`` prefabs, ``C`` crops), in this order:

- ``0``: do nothing;
- place prefab ``p`` with its bottom-left corner at ``(x, y)`` facing ``o`` (south, west,
  north, east): ``P * H * W * 4`` actions;
- lay a path from the district center's doorstep to ``(x, y)``: ``H * W``;
- mark the ``K x K`` area from ``(x, y)`` for cutting at the terrain height there: ``H * W``;
- mark that area for planting crop ``c``: ``C * H * W``.

The mask (``info["action_mask"]``, int8) allows only actions that do something: the wait (0);
every placement ``POST /api/building/place`` accepts this step (``POST /api/placement/mask``: the
game's own placement rules over the whole map, one request for all the prefabs); a path to a dry
tile that nothing stands on and no path covers; cutting a square with a grown tree in it;
planting a square with a tile crops can take (moist, dry, nothing on it). Squares are clipped to
the map. An action outside the mask is still sent: the game refuses it with an error that the
step reports in ``info["error"]``, or it changes nothing; nothing crashes. With ``join_paths``, a
placed building's doorstep is joined to the district center's by a path when one can be laid.
The in-process engine (``crates/engine``) builds the same mask and acts by the same rules.
"""

from __future__ import annotations

import base64
import contextlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..client import Colony
from ..errors import ColonyError

ORIENTATIONS = ("south", "west", "north", "east")
KINDS = ("noop", "place", "path", "cut", "plant")


@dataclass(frozen=True)
class Action:
    """A decoded action: ``kind`` and the members it uses."""

    kind: str
    prefab: int = 0
    x: int = 0
    y: int = 0
    orientation: int = 0
    crop: int = 0


class Layout:
    """The flat action index of each (kind, parameters) for a map and lists."""

    def __init__(self, width: int, height: int, prefabs: int, crops: int) -> None:
        self.w, self.h, self.p, self.c = width, height, prefabs, crops
        tiles = width * height
        self.place0 = 1
        self.path0 = self.place0 + prefabs * tiles * 4
        self.cut0 = self.path0 + tiles
        self.plant0 = self.cut0 + tiles
        self.n = self.plant0 + crops * tiles

    def place(self, p: int, x: int, y: int, o: int) -> int:
        return self.place0 + ((p * self.h + y) * self.w + x) * 4 + o

    def path(self, x: int, y: int) -> int:
        return self.path0 + y * self.w + x

    def cut(self, x: int, y: int) -> int:
        return self.cut0 + y * self.w + x

    def plant(self, c: int, x: int, y: int) -> int:
        return self.plant0 + (c * self.h + y) * self.w + x

    def decode(self, a: int) -> Action:
        a = int(a)
        if not 0 <= a < self.n:
            raise ValueError(f"action {a} is outside 0-{self.n - 1}")
        tiles = self.w * self.h
        if a == 0:
            return Action("noop")
        if a < self.path0:
            i, o = divmod(a - self.place0, 4)
            p, t = divmod(i, tiles)
            return Action("place", prefab=p, x=t % self.w, y=t // self.w, orientation=o)
        if a < self.cut0:
            t = a - self.path0
            return Action("path", x=t % self.w, y=t // self.w)
        if a < self.plant0:
            t = a - self.cut0
            return Action("cut", x=t % self.w, y=t // self.w)
        c, t = divmod(a - self.plant0, tiles)
        return Action("plant", crop=c, x=t % self.w, y=t // self.w)


def square_any(layer: np.ndarray, k: int) -> np.ndarray:
    """For each tile, whether the ``k x k`` square from it (clipped to the map) holds a true tile
    (summed-area counts)."""
    h, w = layer.shape
    s = np.zeros((h + 1, w + 1), np.int64)
    s[1:, 1:] = layer.astype(np.int64).cumsum(0).cumsum(1)
    y2 = np.minimum(np.arange(h) + k, h)[:, None]
    x2 = np.minimum(np.arange(w) + k, w)[None, :]
    y1, x1 = np.arange(h)[:, None], np.arange(w)[None, :]
    return (s[y2, x2] + s[y1, x1] - s[y1, x2] - s[y2, x1]) > 0


class Actor:
    """Computes masks and carries out actions on one game."""

    def __init__(
        self,
        client: Colony,
        layout: Layout,
        prefabs: list[str],
        crops: list[str],
        area: int,
        join_paths: bool = False,
    ) -> None:
        self.client = client
        self.layout = layout
        self.prefabs, self.crops = prefabs, crops
        self.area = area
        self.join_paths = join_paths
        #: The height each prefab stands at plus one, per tile and orientation (0 refused), as
        #: ``POST /api/placement/mask`` gave it this step.
        self.spots = np.zeros(0, np.uint8)

    def mask(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        lay = self.layout
        m = np.zeros(lay.n, np.int8)
        m[0] = 1
        if self.prefabs:
            answer = self.client.placement_mask(prefabs=self.prefabs)
            self.spots = np.concatenate(
                [np.frombuffer(base64.b64decode(k["spots"]), np.uint8) for k in answer["masks"]]
            )
            m[lay.place0 : lay.path0] = self.spots > 0
        empty = (
            (obs["water"] <= 0)
            & (obs["buildings"] == 0)
            & (obs["trees"] == 0)
            & (obs["bushes"] == 0)
            & (obs["crops"] == 0)
            & (obs["sites"] == 0)
        )
        free = empty & (obs["paths"] == 0)
        m[lay.path0 : lay.cut0] = free.reshape(-1)
        m[lay.cut0 : lay.plant0] = square_any(obs["trees"] == 2, self.area).reshape(-1)
        plantable = square_any(free & (obs["moisture"] == 1), self.area).reshape(-1)
        for c in range(lay.c):
            start = lay.plant0 + c * lay.w * lay.h
            m[start : start + lay.w * lay.h] = plantable
        return m

    def _join(self, building: int, entrance: tuple[int, int]) -> None:
        """Lays a path from the district center's doorstep to a placed building's, when it has
        one; a path that cannot be laid leaves the building as it is."""
        rows = self.client.buildings(id=building)
        items = rows.get("items", []) if isinstance(rows, dict) else rows
        if not items or items[0].get("entranceX") is None:
            return
        b = items[0]
        with contextlib.suppress(ColonyError):
            self.client.path_place(
                x1=entrance[0], y1=entrance[1], x2=b["entranceX"], y2=b["entranceY"]
            )

    def act(
        self, a: int, terrain: np.ndarray, entrance: tuple[int, int] | None
    ) -> tuple[Action, Any]:
        """Carries out an action; returns it decoded with the service's answer (or raises)."""
        act = self.layout.decode(a)
        c = self.client
        x, y = act.x, act.y
        z = int(terrain[y, x])
        if act.kind == "noop":
            return act, None
        if act.kind == "place":
            i = self.layout.place(act.prefab, x, y, act.orientation) - self.layout.place0
            stands = int(self.spots[i]) if i < self.spots.size else 0
            placed = c.building_place(
                prefab=self.prefabs[act.prefab],
                x=x,
                y=y,
                z=stands - 1 if stands else z,
                orientation=ORIENTATIONS[act.orientation],
            )
            if self.join_paths and entrance is not None:
                self._join(int(placed["id"]), entrance)
            return act, placed
        if act.kind == "path":
            if entrance is None:
                raise ColonyError("no_district", "no district center to lay a path from")
            return act, c.path_place(x1=entrance[0], y1=entrance[1], x2=x, y2=y)
        x2 = min(x + self.area - 1, self.layout.w - 1)
        y2 = min(y + self.area - 1, self.layout.h - 1)
        if act.kind == "cut":
            return act, c.cutting_area(x1=x, y1=y, x2=x2, y2=y2, z=z, marked=True)
        return act, c.planting_mark(x1=x, y1=y, x2=x2, y2=y2, z=z, crop=self.crops[act.crop])


def sample_masked(mask: np.ndarray, rng: np.random.Generator, tries: int = 32) -> int:
    """An action drawn uniformly among those ``mask`` allows (its non-zero entries).

    Rejection first: draw an index over the whole space and keep it if allowed. The mask is
    dense early in a game (most placements are allowed), so an allowed action comes in one or
    two draws, in microseconds, where listing the allowed actions (``np.flatnonzero`` over the
    whole space, about 150,000 entries on a 64 map) costs a quarter of a millisecond. After
    ``tries`` misses (a sparse mask) the allowed actions are listed and one is drawn from them.
    Either way each allowed action is equally likely. ``ValueError`` when nothing is allowed.
    """
    n = mask.shape[0]
    for _ in range(tries):
        i = int(rng.integers(n))
        if mask[i]:
            return i
    allowed = np.flatnonzero(mask)
    if allowed.size == 0:
        raise ValueError("the mask allows no action")
    return int(allowed[rng.integers(allowed.size)])
