"""Observations of ``Colony-v0`` over HTTP: map layers as arrays (indexed ``[y, x]``) and a vector
of colony numbers, read with three requests per step.

``GET /api/tiles`` over the whole map (nested json omits absent members, about 12 bytes a tile on
a young colony) gives terrain height, water depth, badwater share, moist and contaminated soil,
doorsteps, and what stands on each tile (plants by name, buildings by prefab, paths).
``GET /api/buildings`` gives the sites (buildings not yet finished), whose footprints come from
the prefabs' sizes (``GET /api/prefabs``, once). ``GET /api/summary`` gives the colony's numbers.
Building roles come from ``GET /api/buildings?detail=full`` once per prefab name (cached). Tree
and bush names are the game's (``data/nature.json``); any other plant is a crop. The engine
(``crates/engine/src/observe.rs``) writes the same values from the world.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..client import Colony

TREES = frozenset({"Birch", "Pine", "Oak", "Maple", "ChestnutTree", "Mangrove"})
BUSHES = frozenset({"BlueberryBush", "Dandelion", "CoffeeBush"})

#: Codes of the ``buildings`` layer (0: none).
ROLES = ("district", "housing", "water", "food", "wood", "storage", "power", "others")
ROLE_CODE = {r: i + 1 for i, r in enumerate(ROLES)}

#: Codes of the plant layers.
PLANT_NONE, PLANT_SEEDLING, PLANT_GROWN, PLANT_DEAD = 0, 1, 2, 3

#: The goods ``stock_food`` counts: the food category of ``data/goods.json``, both factions'
#: (``colony_engine.FOODS``; a test holds the two together).
FOOD_GOODS = frozenset(
    {
        "Berries",
        "Carrot",
        "SunflowerSeeds",
        "Kohlrabi",
        "MangroveFruit",
        "GrilledPotato",
        "GrilledChestnut",
        "GrilledSpadderdock",
        "Bread",
        "CattailCracker",
        "MaplePastry",
        "FermentedCassava",
        "FermentedSoybean",
        "FermentedMushroom",
        "CornRation",
        "EggplantRation",
        "AlgaeRation",
    }
)

#: The ``colony`` vector, in order.
COLONY_FIELDS = (
    "day",
    "hour",
    "adults",
    "children",
    "bots",
    "homeless",
    "beds",
    "unemployed",
    "food_days",
    "water_days",
    "log_days",
    "plank_days",
    "wellbeing",
    "miserable",
    "critical",
    "science",
    "hazardous",
    "hazard_days",
    "stock_water",
    "stock_food",
    "stock_log",
    "stock_plank",
    "buildings",
    "game_over",
)

MAX_Z = 30

#: The map layers of small codes (``uint8``), in the observation's order (``water`` and
#: ``badwater``, ``float32``, follow them).
CODE_LAYERS = (
    "terrain",
    "moisture",
    "contaminated",
    "trees",
    "crops",
    "bushes",
    "buildings",
    "paths",
    "entrances",
    "sites",
)


def observation_space(width: int, height: int) -> spaces.Dict:
    """The observation space for a map of this size."""
    shape = (height, width)

    def cat(n: int) -> spaces.Box:
        return spaces.Box(0, n, shape, np.uint8)

    return spaces.Dict(
        {
            "terrain": cat(MAX_Z),
            "water": spaces.Box(0.0, float(MAX_Z), shape, np.float32),
            "badwater": spaces.Box(0.0, 1.0, shape, np.float32),
            "moisture": cat(1),
            "contaminated": cat(1),
            "trees": cat(3),
            "crops": cat(3),
            "bushes": cat(3),
            "buildings": cat(len(ROLES)),
            "paths": cat(2),
            "entrances": cat(1),
            "sites": cat(1),
            "colony": spaces.Box(-1.0, 1e9, (len(COLONY_FIELDS),), np.float32),
        }
    )


class Observer:
    """Reads one observation of a game; keeps the caches of a game."""

    def __init__(self, client: Colony, width: int, height: int) -> None:
        self.client = client
        self.width, self.height = width, height
        self.roles: dict[str, str] = {}
        #: Occupant name -> ``_kind``.
        self._kinds: dict[str, tuple[str, int | None]] = {}
        self.summary: dict[str, Any] = {}
        #: Prefab name -> (sizeX, sizeY).
        self._sizes: dict[str, tuple[int, int]] = {}

    def _role(self, name: str) -> str:
        if name not in self.roles:
            rows = self.client.buildings(name=name, detail="full", limit=0)
            for b in rows:
                self.roles[b["name"]] = b.get("role", "others")
            self.roles.setdefault(name, "others")
        role = self.roles[name]
        return role if role in ROLE_CODE or role == "paths" else "others"

    def observe(self) -> dict[str, np.ndarray]:
        tiles = self.client.tiles(x1=0, y1=0, x2=self.width - 1, y2=self.height - 1)["tiles"]
        layers = self.layers(tiles)
        self._sites(layers["sites"])
        self.summary = self.client.summary()
        return {**layers, "colony": self._colony()}

    def _sites(self, out: np.ndarray) -> None:
        """Marks the footprints of the buildings not yet finished."""
        sites = [b for b in self.client.buildings(limit=0) if not b.get("finished", True)]
        if sites and not self._sizes:
            self._sizes = {p["name"]: (p["sizeX"], p["sizeY"]) for p in self.client.prefabs()}
        for b in sites:
            sx, sy = self._sizes.get(b["name"], (1, 1))
            w, d = (sy, sx) if b["orientation"] in ("west", "east") else (sx, sy)
            out[b["y"] : b["y"] + d, b["x"] : b["x"] + w] = 1

    def layers(self, tiles: list[dict[str, Any]]) -> dict[str, np.ndarray]:
        """The map layers of a ``GET /api/tiles`` answer's ``tiles`` (nested json).

        Every tile has ``x, y, terrain, water``; those four are read column by column into
        arrays. Only the tiles with more members (badwater, moist or contaminated soil,
        occupants, plant states: a few hundred on a 64 map) are walked one by one, and what they
        set is written at the end. The result is the per-tile walk's, bit for bit
        (tests/test_gym.py compares them).
        """
        shape = (self.height, self.width)
        n, w = len(tiles), self.width
        xs = np.fromiter((t["x"] for t in tiles), np.intp, n)
        ys = np.fromiter((t["y"] for t in tiles), np.intp, n)
        at = ys * w + xs
        out = {k: np.zeros(shape, np.uint8) for k in CODE_LAYERS}
        out["water"] = np.zeros(shape, np.float32)
        out["badwater"] = np.zeros(shape, np.float32)
        # Flat views of the layers (written through).
        flat = {k: a.reshape(-1) for k, a in out.items()}
        flat["terrain"][at] = np.fromiter((t["terrain"] for t in tiles), np.int64, n)
        depth = np.fromiter((t["water"] for t in tiles), np.float64, n)
        flat["water"][at] = np.minimum(depth, MAX_Z)
        # Tile index and value of what the other members set, by layer.
        sets: dict[str, tuple[list[int], list[float]]] = {k: ([], []) for k in flat}
        kinds = self._kinds
        for t in [t for t in tiles if len(t) > 4]:
            i = t["y"] * w + t["x"]
            if "badwater" in t:
                sets["badwater"][0].append(i)
                sets["badwater"][1].append(t["badwater"])
            if t.get("moist"):
                sets["moisture"][0].append(i)
                sets["moisture"][1].append(1)
            if t.get("contaminated"):
                sets["contaminated"][0].append(i)
                sets["contaminated"][1].append(1)
            if t.get("entrance"):
                sets["entrances"][0].append(i)
                sets["entrances"][1].append(1)
            occupants = t.get("occupants")
            if not occupants:
                continue
            plant = PLANT_DEAD if t.get("dead") else PLANT_SEEDLING if t.get("seedling") else 2
            # The last occupant on a layer wins, as when each one is written in turn.
            here: dict[str, int] = {}
            for o in occupants:
                name = o["name"]
                kind = kinds.get(name)
                if kind is None:
                    kind = self._kind(name)
                    if "." not in name:
                        # (A building's role is looked up each time, as roles are cached.)
                        kinds[name] = kind
                layer, code = kind
                if layer:
                    here[layer] = plant if code is None else code
            for layer, v in here.items():
                sets[layer][0].append(i)
                sets[layer][1].append(v)
        for layer, (idx, values) in sets.items():
            if idx:
                flat[layer][idx] = values
        return out

    def _kind(self, name: str) -> tuple[str, int | None]:
        """The layer an occupant of this name marks (``""``: none) and its code there (None:
        the tile's plant state)."""
        if name == "Path":
            return "paths", 1
        if "." in name:
            role = self._role(name)
            return ("paths", 2) if role == "paths" else ("buildings", ROLE_CODE[role])
        if name in TREES:
            return "trees", None
        if name in BUSHES:
            return "bushes", None
        if not name.startswith("Ruin"):
            return "crops", None
        return "", None

    def _colony(self) -> np.ndarray:
        s = self.summary
        pop = {"adults": 0, "children": 0, "bots": 0}
        homeless = beds = unemployed = 0
        stock: dict[str, float] = {}
        for d in s.get("districts", []):
            for k in pop:
                pop[k] += d["population"][k]
            homeless += d["housing"]["homeless"]
            beds += d["housing"]["totalBeds"]
            unemployed += d["employment"]["unemployed"]
            for g, n in d.get("resources", {}).items():
                stock[g] = stock.get(g, 0) + n
        p, t, wb = s.get("projections", {}), s.get("time", {}), s.get("wellbeing", {})
        food = sum(n for g, n in stock.items() if g in FOOD_GOODS)
        weather = s.get("weather", {})
        until = weather.get("hoursUntilHazard")
        hazard_days = until / 24 if until is not None else 0 if weather.get("isHazardous") else -1
        values = {
            "day": t.get("dayNumber", 0),
            "hour": t.get("hour", 0),
            **pop,
            "homeless": homeless,
            "beds": beds,
            "unemployed": unemployed,
            "food_days": p.get("foodDays", -1),
            "water_days": p.get("waterDays", -1),
            "log_days": p.get("logDays", -1),
            "plank_days": p.get("plankDays", -1),
            "wellbeing": wb.get("average", 0),
            "miserable": wb.get("miserable", 0),
            "critical": wb.get("critical", 0),
            "science": s.get("science", 0),
            "hazardous": 1 if weather.get("isHazardous") else 0,
            "hazard_days": hazard_days,
            "stock_water": stock.get("Water", 0),
            "stock_food": food,
            "stock_log": stock.get("Log", 0),
            "stock_plank": stock.get("Plank", 0),
            "buildings": sum(s.get("buildings", {}).values()),
            "game_over": 1 if s.get("gameOver") else 0,
        }
        v = [min(max(-1.0, float(values[k])), 1e9) for k in COLONY_FIELDS]
        return np.array(v, np.float32)

    def dc_entrance(self) -> tuple[int, int] | None:
        """The first district center's doorstep, from the last summary."""
        for d in self.summary.get("districts", []):
            dc = d.get("dc")
            if dc:
                return int(dc["entranceX"]), int(dc["entranceY"])
        return None
