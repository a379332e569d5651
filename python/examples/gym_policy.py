"""A hand-written policy that plays ``Colony-v0`` through its action space alone: it reads only
the observation and the mask, and acts only with the environment's actions (``env.layout``).

    python python/examples/gym_policy.py --seeds 1,2,3 --days 60

Each turn it looks at what the colony lacks, in order: water (a pump with its intake over deep
enough water, reached by a path it lays in short legs over the center's level, then a tank), the
stores (a log pile and a warehouse: the district center takes no deliveries), food (a gatherer by
ripe bushes, a farmhouse by moist soil with carrots planted around it), logs (a lumberjack by
grown trees, which it marks for cutting), beds (lodges) and more tanks before a hazard. It places
what is lacking at the allowed spot nearest the district center that suits it, off the plaza
round the center's doorstep (buildings there would wall it in), and checks on the next
observation that the environment's path reached the new building's doorstep (the ``entrances``
and ``paths`` layers); a spot no path reached is given up and another tried. While a reached site
waits for logs, only flags (free) are placed.

Survive-60's game (128 map, half-day turns, Normal), seeds 1-10: docs/python.md has the table.
It is a floor, not a ceiling: it never researches, builds no stairs, and dies where the only
water lies below the center's level behind forest (it cannot clear a way).
"""

from __future__ import annotations

import argparse
from collections import deque
from typing import Any

import numpy as np

import colony.gym  # noqa: F401  (registers Colony-v0)
from colony.gym import ColonyEnv
from colony.gym.observe import COLONY_FIELDS, ROLE_CODE

#: The pump's back row (its intake), by orientation, for a 2 x 3 pump at (x, y): (dx, dy) pairs.
PUMP_INTAKE = (
    ((0, 2), (1, 2)),  # south
    ((2, 0), (2, 1)),  # west
    ((0, 0), (1, 0)),  # north
    ((0, 0), (0, 1)),  # east
)
#: The row just in front of the pump, opposite its intake, where its doorstep is.
PUMP_FRONT = (
    ((0, -1), (1, -1)),  # south
    ((-1, 0), (-1, 1)),  # west
    ((0, 3), (1, 3)),  # north
    ((3, 0), (3, 1)),  # east
)
#: Water a pump's intake needs (metres) to keep pumping through a short dry spell.
PUMP_DEPTH = 0.1
#: Buildings that cost no logs (flags): placed even while a site waits for its logs.
FREE = frozenset({"GathererFlag", "LumberjackFlag"})
#: Steps from the district center's doorstep kept free of buildings.
PLAZA = 4


def near(layer: np.ndarray, radius: int) -> np.ndarray:
    """How many set tiles of ``layer`` lie in the square of ``radius`` around each tile."""
    h, w = layer.shape
    s = np.zeros((h + 1, w + 1), np.int64)
    s[1:, 1:] = layer.astype(np.int64).cumsum(0).cumsum(1)
    ys, xs = np.arange(h), np.arange(w)
    y1 = np.clip(ys - radius, 0, h)[:, None]
    y2 = np.clip(ys + radius + 1, 0, h)[:, None]
    x1 = np.clip(xs - radius, 0, w)[None, :]
    x2 = np.clip(xs + radius + 1, 0, w)[None, :]
    return s[y2, x2] - s[y1, x2] - s[y2, x1] + s[y1, x1]


class Policy:
    """Chooses actions for one episode of a ``ColonyEnv`` (its layout and prefab list)."""

    def __init__(self, env: ColonyEnv) -> None:
        self.env = env
        self.lay = env.layout
        self.index = {p.split(".")[0]: i for i, p in enumerate(env.prefabs)}
        self.placed: dict[str, int] = {}
        #: The observation of the step being chosen.
        self.obs: dict[str, np.ndarray] = {}
        #: ``distance``'s answer and the observation it is for.
        self.dist_of: dict[str, np.ndarray] | None = None
        self.dist = np.zeros(0)
        self.turn_actions = 0
        self.last_hours = -1.0
        #: The pump spot being joined (x, y, orientation) and the path's legs still to lay.
        self.target: tuple[int, int, int] | None = None
        self.legs: list[tuple[int, int]] = []
        #: Pump spots a path could not reach.
        self.unreachable: set[tuple[int, int, int]] = set()
        #: The last placement (prefab name, action) and the entrances before it, checked on the
        #: next observation: a doorstep no path reached is a site nobody can build.
        self.pending: tuple[str, int, np.ndarray] | None = None
        #: Doorsteps of sites no path reached (they block nothing: no builder goes there).
        self.dead_doors = np.zeros((env.layout.h, env.layout.w), bool)
        #: Spots (actions) given up.
        self.refused: set[int] = set()
        #: Squares already marked for cutting or planting.
        self.marked: set[int] = set()

    # What the colony has -------------------------------------------------------------------

    def colony(self, obs: dict[str, np.ndarray]) -> dict[str, float]:
        return dict(zip(COLONY_FIELDS, obs["colony"].tolist(), strict=True))

    def center(self, obs: dict[str, np.ndarray]) -> tuple[float, float]:
        ys, xs = np.nonzero(obs["buildings"] == ROLE_CODE["district"])
        return float(xs.mean()), float(ys.mean())

    # Spots -----------------------------------------------------------------------------------

    def spots(self, name: str, mask: np.ndarray) -> np.ndarray:
        """The prefab's allowed spots as an (h, w, 4) boolean array."""
        p = self.index[name]
        start = self.lay.place(p, 0, 0, 0)
        n = self.lay.w * self.lay.h * 4
        return mask[start : start + n].reshape(self.lay.h, self.lay.w, 4).astype(bool)

    def best(self, name: str, mask: np.ndarray, cost: np.ndarray) -> int | None:
        """The allowed spot of lowest cost (``cost`` per tile, inf where unwanted); never on
        the plaza round the district center's doorstep, which buildings would wall in."""
        if name not in FREE:
            cost = np.where(self.distance(self.obs) < PLAZA, np.inf, cost)
        ok = self.spots(name, mask)
        costs = np.where(ok, cost[:, :, None], np.inf)
        if not np.isfinite(costs).any():
            return None
        y, x, o = np.unravel_index(int(np.argmin(costs)), costs.shape)
        return self.lay.place(self.index[name], int(x), int(y), int(o))

    def distance(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """Steps of path from the district center to each tile (see ``walk``), worked out once
        per observation (a step's choice asks for it once a wanted building and more)."""
        if self.dist_of is not obs:
            self.dist_of, self.dist = obs, self.walk(obs)[0]
        return self.dist

    def walk(
        self, obs: dict[str, np.ndarray], blocked: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Steps of path from the district center's doorstep to each tile, walking dry tiles of
        its terrain level that nothing stands on (a path cannot climb a level without stairs,
        which need science, nor cross water, plants or buildings), infinite where none goes;
        and each tile's previous tile on the way (flat index, -1 at the start)."""
        terrain = obs["terrain"]
        h, w = terrain.shape
        district = obs["buildings"] == ROLE_CODE["district"]
        ys, xs = np.nonzero(district)
        level = terrain[ys[0], xs[0]]
        free = (
            (terrain == level)
            & (obs["water"] <= 0)
            & (obs["trees"] == 0)
            & (obs["bushes"] == 0)
            & (obs["crops"] == 0)
            & (obs["buildings"] == 0)
            & (obs["sites"] == 0)
        )
        if blocked is not None:
            free &= ~blocked
        # From the center's doorstep: the doorstep beside its footprint.
        beside = np.zeros_like(district)
        beside[1:] |= district[:-1]
        beside[:-1] |= district[1:]
        beside[:, 1:] |= district[:, :-1]
        beside[:, :-1] |= district[:, 1:]
        dist = np.full((h, w), np.inf)
        prev = np.full((h, w), -1, np.int64)
        queue: deque[tuple[int, int]] = deque()
        for y, x in zip(*np.nonzero(beside & (obs["entrances"] == 1)), strict=True):
            dist[y, x] = 0
            queue.append((int(y), int(x)))
        while queue:
            y, x = queue.popleft()
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= ny < h and 0 <= nx < w and free[ny, nx] and dist[ny, nx] == np.inf:
                    dist[ny, nx] = dist[y, x] + 1
                    prev[ny, nx] = y * w + x
                    queue.append((ny, nx))
        return dist, prev

    def pump(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> int | None:
        """The next action toward a pump: a path laid in short legs along a walkable route from
        the center's doorstep to the chosen spot's doorstep (the path search works best in short
        legs), then the pump; a spot its route does not reach is given up."""
        lay, w = self.lay, self.lay.w
        for _ in range(8):
            if self.target is None:
                spot = self.pump_spot(obs, mask) or self.pump_spot(obs, mask, depth=0.02)
                if spot is None:
                    return self.any_pump(obs, mask)
                x, y, o, (fx, fy) = spot
                sx, sy = (3, 2) if o in (1, 3) else (2, 3)
                blocked = np.zeros(obs["terrain"].shape, bool)
                blocked[y : y + sy, x : x + sx] = True
                dist, prev = self.walk(obs, blocked)
                if not np.isfinite(dist[fy, fx]):
                    self.unreachable.add((x, y, o))
                    continue
                route = [fy * w + fx]
                while prev.flat[route[-1]] >= 0:
                    route.append(int(prev.flat[route[-1]]))
                route.reverse()
                self.legs = [divmod(i, w)[::-1] for i in route[5::5]] + [(fx, fy)]
                self.target = (x, y, o)
            while self.legs:
                lx, ly = self.legs.pop(0)
                a = lay.path0 + ly * w + lx
                if mask[a]:
                    return int(a)
            x, y, o = self.target
            self.target = None
            a = lay.place(self.index["WaterPump"], x, y, o)
            if mask[a]:
                return a
            self.unreachable.add((x, y, o))
        return None

    def any_pump(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> int | None:
        """Where no pump spot is reached at the center's level: the allowed spot nearest the
        center with its intake over deep enough water, joined by the environment's own path
        (which may find a way the level walk does not); one that stays unjoined is given up."""
        ok = self.spots("WaterPump", mask)
        water = obs["water"]
        h, w = water.shape
        cx, cy = self.center(obs)
        best, best_cost = None, np.inf
        for y, x, o in zip(*np.nonzero(ok), strict=True):
            depths = [
                float(water[y + dy, x + dx]) if 0 <= y + dy < h and 0 <= x + dx < w else 0.0
                for dx, dy in PUMP_INTAKE[o]
            ]
            cost = abs(x - cx) + abs(y - cy)
            if min(depths) >= PUMP_DEPTH and cost < best_cost:
                best, best_cost = (
                    self.lay.place(self.index["WaterPump"], int(x), int(y), int(o)),
                    cost,
                )
        return best

    def pump_spot(
        self,
        obs: dict[str, np.ndarray],
        mask: np.ndarray,
        on_path: bool = False,
        depth: float = PUMP_DEPTH,
    ) -> tuple[int, int, int, tuple[int, int]] | None:
        """The pump spot nearest the center (by its doorstep) with its intake over deep enough
        water and its doorstep on dry land at the center's level (``on_path``: two tiles or
        less from a path)."""
        ok = self.spots("WaterPump", mask)
        water = obs["water"]
        h, w = water.shape
        dist = self.distance(obs)
        best, best_cost = None, np.inf

        def at(layer: np.ndarray, x: int, y: int, off: float) -> float:
            return float(layer[y, x]) if 0 <= y < h and 0 <= x < w else off

        for y, x, o in zip(*np.nonzero(ok), strict=True):
            depths = [at(water, x + dx, y + dy, 0.0) for dx, dy in PUMP_INTAKE[o]]
            # Its doorstep on dry land a path from the center reaches (the center's level).
            front = [at(dist, x + dx, y + dy, np.inf) for dx, dy in PUMP_FRONT[o]]
            dry = [at(water, x + dx, y + dy, 1.0) <= 0 for dx, dy in PUMP_FRONT[o]]
            if (int(x), int(y), int(o)) in self.unreachable:
                continue
            if min(depths) < depth or not all(dry) or max(front) >= best_cost:
                continue
            fx, fy = x + PUMP_FRONT[o][0][0], y + PUMP_FRONT[o][0][1]
            if on_path and not obs["paths"][max(fy - 2, 0) : fy + 3, max(fx - 2, 0) : fx + 3].any():
                continue
            dx, dy = PUMP_FRONT[o][0]
            best = (int(x), int(y), int(o), (int(x + dx), int(y + dy)))
            best_cost = max(front)
        return best

    # The choice -----------------------------------------------------------------------------

    def want(self, obs: dict[str, np.ndarray]) -> list[tuple[str, np.ndarray | None]]:
        """What to place next, most wanted first, each with its cost map (None: the pump's own
        search)."""
        c = self.colony(obs)
        pop = c["adults"] + c["children"]
        dist = self.distance(obs)
        have = self.placed.get
        wants: list[tuple[str, np.ndarray | None]] = []
        if have("WaterPump", 0) < 1 + int(pop > 14) + int(pop > 28):
            wants.append(("WaterPump", None))
        if have("SmallTank", 0) < 1:
            wants.append(("SmallTank", dist))
        if have("LargePile", 0) < 1:
            wants.append(("LargePile", dist + 1))
        if have("SmallWarehouse", 0) < 1:
            wants.append(("SmallWarehouse", dist + 1))
        bushes = near(obs["bushes"] == 2, 8)
        if have("GathererFlag", 0) < 1 + int(pop > 12):
            wants.append(("GathererFlag", np.where(bushes > 3, dist - bushes, np.inf)))
        trees = near(obs["trees"] == 2, 8)
        if have("LumberjackFlag", 0) < 1 + int(pop > 16):
            wants.append(("LumberjackFlag", np.where(trees > 6, dist - trees / 2, np.inf)))
        moist = near((obs["moisture"] == 1) & (obs["trees"] == 0) & (obs["water"] <= 0), 3)
        if have("EfficientFarmHouse", 0) < 1 + int(pop > 14) + int(pop > 24):
            wants.append(("EfficientFarmHouse", np.where(moist > 10, dist - moist, np.inf)))
        # Three beds a lodge; sites count (their beds come when they are finished).
        if have("Lodge", 0) < min(1 + int(pop // 3), 12):
            wants.append(("Lodge", dist + 2))
        tanks = 1 + int(pop // 6) + (2 if 0 <= c["hazard_days"] < 4 else 0)
        if have("SmallTank", 0) < min(tanks, 10):
            wants.append(("SmallTank", dist))
        if have("SmallWarehouse", 0) < 1 + int(pop // 12):
            wants.append(("SmallWarehouse", dist + 1))
        if have("LargePile", 0) < 1 + int(pop // 20):
            wants.append(("LargePile", dist + 1))
        return wants

    def check_join(self, obs: dict[str, np.ndarray]) -> None:
        """Whether the last placement's doorstep was joined to the paths; if not, it is counted
        out and its spot given up."""
        if self.pending is None:
            return
        name, a, before = self.pending
        self.pending = None
        new = (obs["entrances"] == 1) & ~before
        if not new.any() or (obs["paths"][new] > 0).any():
            return
        self.dead_doors |= new
        self.placed[name] -= 1
        self.refused.add(a)
        d = self.lay.decode(a)
        if name == "WaterPump":
            self.unreachable.add((d.x, d.y, d.orientation))

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        self.obs = obs
        self.check_join(obs)
        mask = info["action_mask"].copy()
        for a in self.refused:
            mask[a] = 0
        if info["hours"] != self.last_hours:
            self.last_hours, self.turn_actions = info["hours"], 0
        if self.turn_actions >= 4:
            return 0
        self.turn_actions += 1
        # One site at a time takes the logs there are (the pump first): while a site that a
        # path reached stands unfinished, only flags are placed.
        live_sites = (obs["sites"] > 0) & ~near(self.dead_doors, 3).astype(bool)
        busy = bool(live_sites.any())
        for name, cost in self.want(obs):
            if name not in self.index or (busy and name not in FREE):
                continue
            a = self.pump(obs, mask) if cost is None else self.best(name, mask, cost)
            if a is not None:
                if self.lay.decode(a).kind == "place":
                    self.placed[name] = self.placed.get(name, 0) + 1
                    self.pending = (name, a, obs["entrances"] == 1)
                return a
        return self.tend(obs, mask)

    def tend(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        """Marks trees for cutting near the lumberjacks and plants carrots near the farms, a
        square a turn each; else waits."""
        dist = self.distance(obs)
        lay = self.lay
        if self.placed.get("LumberjackFlag") and self.turn_actions <= 2:
            a = self.nearest_unmarked(mask, dist, lay.cut0, 16)
            if a is not None:
                return a
        if self.placed.get("EfficientFarmHouse") and self.turn_actions <= 3:
            a = self.nearest_unmarked(mask, dist, lay.plant0, 14)
            if a is not None:
                return a
        return 0

    def nearest_unmarked(
        self, mask: np.ndarray, dist: np.ndarray, start: int, reach: int
    ) -> int | None:
        """The allowed action of the per-tile plane at ``start`` (cut, or the first crop's plant)
        on the tile nearest the district center's doorstep, closer than ``reach`` steps and not
        marked before; it is remembered as marked."""
        lay = self.lay
        n = lay.h * lay.w
        plane = mask[start : start + n].reshape(lay.h, lay.w).astype(bool)
        for a in self.marked:
            if start <= a < start + n:
                plane.flat[a - start] = False
        if not plane.any():
            return None
        y, x = np.unravel_index(int(np.argmin(np.where(plane, dist, np.inf))), plane.shape)
        if dist[y, x] >= reach:
            return None
        action = int(start + y * lay.w + x)
        self.marked.add(action)
        return action


def play(seed: int, days: float = 60, **kwargs: Any) -> dict[str, Any]:
    """One episode; returns its score, days lived and the colony at the end."""
    env = ColonyEnv(horizon_days=days, **kwargs)
    try:
        obs, info = env.reset(seed=seed)
        policy = Policy(env)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
            done = terminated or truncated
        c = dict(zip(COLONY_FIELDS, obs["colony"].tolist(), strict=True))
        return {
            "seed": seed,
            "alive": not terminated,
            "day": info["day"],
            "score": info["score"],
            "beavers": int(c["adults"] + c["children"]),
            "placed": policy.placed,
        }
    finally:
        env.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--days", type=float, default=60)
    ap.add_argument("--backend", default=None)
    a = ap.parse_args()
    for s in [int(x) for x in a.seeds.split(",")]:
        print(play(s, a.days, backend=a.backend))


if __name__ == "__main__":
    main()
