"""Observations of ``Colony-v0``: map layers as arrays (indexed ``[y, x]``) and a vector of
colony numbers, read with two requests per step.

``GET /api/tiles`` over the whole map (nested json omits absent members, about 12 bytes a tile on
a young colony) gives terrain height, water depth, badwater share, moist and contaminated soil,
and what stands on each tile (plants by name, buildings by prefab, paths). ``GET /api/summary``
gives the colony's numbers. Building roles come from ``GET /api/buildings?detail=full`` once per
prefab name (cached). Tree and bush names are the game's (``data/nature.json``); any other plant
is a crop.
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
    "stock_water",
    "stock_food",
    "stock_log",
    "stock_plank",
    "buildings",
    "game_over",
)

MAX_Z = 30


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
            "colony": spaces.Box(-1.0, 1e9, (len(COLONY_FIELDS),), np.float32),
        }
    )


class Observer:
    """Reads one observation of a game; keeps the caches of a game."""

    def __init__(self, client: Colony, width: int, height: int) -> None:
        self.client = client
        self.width, self.height = width, height
        self.roles: dict[str, str] = {}
        self.summary: dict[str, Any] = {}

    def _role(self, name: str) -> str:
        if name not in self.roles:
            rows = self.client.buildings(name=name, detail="full", limit=0)
            for b in rows:
                self.roles[b["name"]] = b.get("role", "others")
            self.roles.setdefault(name, "others")
        role = self.roles[name]
        return role if role in ROLE_CODE or role == "paths" else "others"

    def observe(self) -> dict[str, np.ndarray]:
        shape = (self.height, self.width)
        layers = {
            k: np.zeros(shape, np.uint8)
            for k in (
                "terrain",
                "moisture",
                "contaminated",
                "trees",
                "crops",
                "bushes",
                "buildings",
                "paths",
            )
        }
        water = np.zeros(shape, np.float32)
        bad = np.zeros(shape, np.float32)
        tiles = self.client.tiles(x1=0, y1=0, x2=self.width - 1, y2=self.height - 1)["tiles"]
        terrain, moist, cont = layers["terrain"], layers["moisture"], layers["contaminated"]
        for t in tiles:
            x, y = t["x"], t["y"]
            terrain[y, x] = t["terrain"]
            water[y, x] = min(t["water"], MAX_Z)
            if "badwater" in t:
                bad[y, x] = t["badwater"]
            if t.get("moist"):
                moist[y, x] = 1
            if t.get("contaminated"):
                cont[y, x] = 1
            occupants = t.get("occupants")
            if occupants:
                self._occupants(layers, x, y, occupants, t)
        self.summary = self.client.summary()
        return {**layers, "water": water, "badwater": bad, "colony": self._colony()}

    def _occupants(
        self, layers: dict[str, np.ndarray], x: int, y: int, occupants: list[Any], t: Any
    ) -> None:
        plant = PLANT_DEAD if t.get("dead") else PLANT_SEEDLING if t.get("seedling") else 2
        for o in occupants:
            name = o["name"]
            if name == "Path":
                layers["paths"][y, x] = 1
            elif "." in name:
                role = self._role(name)
                if role == "paths":
                    layers["paths"][y, x] = 2
                else:
                    layers["buildings"][y, x] = ROLE_CODE[role]
            elif name in TREES:
                layers["trees"][y, x] = plant
            elif name in BUSHES:
                layers["bushes"][y, x] = plant
            elif not name.startswith("Ruin"):
                layers["crops"][y, x] = plant

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
        food = sum(n for g, n in stock.items() if g in ("Berries", "Carrot", "Potato", "Bread"))
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
            "hazardous": 1 if s.get("weather", {}).get("isHazardous") else 0,
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
