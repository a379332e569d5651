#!/usr/bin/env python3
"""The random baseline: a few random but well-formed actions per turn, through the public API only.

Each turn it reads the colony (the district center, the unlocked prefabs and the science list) and
takes ACTIONS_PER_TURN actions drawn at random: place an unlocked building at a spot that
`POST /api/placement/find` offers near the district center, lay a path between two nearby tiles,
mark an area for cutting or planting, unlock a building it can afford, change a building's
priority, or nothing. Actions may still be refused (a path that cannot be routed, a crop on the
wrong soil); that is part of being random. Its choices are seeded by the episode and turn, so a
rerun of the same episode makes the same moves.

Runs as `colony eval` and `colony connect` hand turns: the address in COLONY_HOST/COLONY_PORT,
the episode in COLONY_EPISODE (or COLONY_EPOCH) and the turn in COLONY_TURN (or COLONY_REQUEST_ID).
Python 3.10+, standard library only.
"""

from __future__ import annotations

import json
import os
import random
import sys
import urllib.request
import zlib
from typing import Any

ACTIONS_PER_TURN = 3
# How far from the district center (tiles) the agent looks for spots.
REACH = 20
CROPS = {
    "Folktails": ["Carrot", "Potato", "Wheat", "Sunflower"],
    "IronTeeth": ["Kohlrabi", "Soybean", "Corn", "Cassava"],
}
PRIORITIES = ["VeryLow", "Low", "Normal", "High", "VeryHigh"]
SKIP_PREFABS = ("DistrictCenter.", "Path")


class Api:
    """A tiny JSON client: every answer in the nested json format; error bodies come back as is."""

    def __init__(self) -> None:
        host = os.environ.get("COLONY_HOST", "127.0.0.1")
        port = os.environ.get("COLONY_PORT", "8085")
        self.base = f"http://{host}:{port}"
        self.token = os.environ.get("COLONY_TOKEN", "")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        sep = "&" if "?" in path else "?"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.base}{path}{sep}format=json", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return json.loads(e.read() or b"null")

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.call("POST", path, body)


def district_center(buildings: list[Any]) -> tuple[int, int, int]:
    for b in buildings:
        if isinstance(b, dict) and str(b.get("name", "")).startswith("DistrictCenter."):
            return int(b["x"]), int(b["y"]), int(b["z"])
    return 64, 64, 4


def area(rng: random.Random, c: tuple[int, int, int], size: int) -> dict[str, int]:
    x = c[0] + rng.randint(-REACH, REACH)
    y = c[1] + rng.randint(-REACH, REACH)
    return {
        "x1": max(0, x),
        "y1": max(0, y),
        "x2": max(0, x + size),
        "y2": max(0, y + size),
    }


def place(api: Api, rng: random.Random, c: tuple[int, int, int]) -> str:
    prefabs = [
        p["name"]
        for p in api.get("/api/prefabs") or []
        # The json omits `unlocked` (and `scienceCost`) for buildings that cost no science.
        if p.get("unlocked", True) and not str(p["name"]).startswith(SKIP_PREFABS)
    ]
    if not prefabs:
        return "no prefab"
    prefab = rng.choice(prefabs)
    box = {
        "x1": max(0, c[0] - REACH),
        "y1": max(0, c[1] - REACH),
        "x2": c[0] + REACH,
        "y2": c[1] + REACH,
    }
    found = api.post("/api/placement/find", {"prefab": prefab, **box})
    spots = found.get("placements", []) if isinstance(found, dict) else []
    if not spots:
        return f"no spot for {prefab}"
    s = rng.choice(spots)
    keys = ("x", "y", "z", "orientation")
    r = api.post("/api/building/place", {"prefab": prefab, **{k: s[k] for k in keys}})
    outcome = r.get("error", "ok") if isinstance(r, dict) else r
    return f"place {prefab} at {s['x']},{s['y']}: {outcome}"


def path(api: Api, rng: random.Random, c: tuple[int, int, int]) -> str:
    a = area(rng, c, 0)
    b = area(rng, c, 0)
    r = api.post("/api/path/place", {"x1": a["x1"], "y1": a["y1"], "x2": b["x1"], "y2": b["y1"]})
    return f"path: {r.get('error', 'ok') if isinstance(r, dict) else r}"


def cut(api: Api, rng: random.Random, c: tuple[int, int, int]) -> str:
    r = api.post("/api/cutting/area", {**area(rng, c, 8), "z": c[2], "marked": True})
    return f"cut: {r.get('error', 'ok') if isinstance(r, dict) else r}"


def plant(api: Api, rng: random.Random, c: tuple[int, int, int], faction: str) -> str:
    crop = rng.choice(CROPS.get(faction, CROPS["Folktails"]))
    r = api.post("/api/planting/mark", {**area(rng, c, 5), "z": c[2], "crop": crop})
    return f"plant {crop}: {r.get('error', 'ok') if isinstance(r, dict) else r}"


def unlock(api: Api, rng: random.Random) -> str:
    sci = api.get("/api/science") or {}
    points = sci.get("points", 0)
    can = [
        u["name"] for u in sci.get("unlockables", []) if not u["unlocked"] and u["cost"] <= points
    ]
    if not can:
        return "nothing to unlock"
    name = rng.choice(can)
    r = api.post("/api/science/unlock", {"building": name})
    return f"unlock {name}: {r.get('error', 'ok') if isinstance(r, dict) else r}"


def priority(api: Api, rng: random.Random, buildings: list[Any]) -> str:
    ids = [b["id"] for b in buildings if isinstance(b, dict)]
    if not ids:
        return "no building"
    r = api.post(
        "/api/building/priority",
        {"id": rng.choice(ids), "priority": rng.choice(PRIORITIES)},
    )
    return f"priority: {r.get('error', 'ok') if isinstance(r, dict) else r}"


def main() -> None:
    sys.stdin.read()
    episode = os.environ.get("COLONY_EPISODE") or os.environ.get("COLONY_EPOCH", "")
    turn = os.environ.get("COLONY_TURN") or os.environ.get("COLONY_REQUEST_ID", "0")
    rng = random.Random(zlib.crc32(f"{episode}:{turn}".encode()))
    api = Api()
    faction = (api.get("/api/summary") or {}).get("faction", "Folktails")
    # One read of the buildings per turn serves every action that needs them.
    buildings = api.get("/api/buildings?limit=0") or []
    c = district_center(buildings)
    actions = [
        "place",
        "place",
        "path",
        "cut",
        "plant",
        "unlock",
        "priority",
        "nothing",
    ]
    for _ in range(ACTIONS_PER_TURN):
        a = rng.choice(actions)
        if a == "place":
            line = place(api, rng, c)
        elif a == "path":
            line = path(api, rng, c)
        elif a == "cut":
            line = cut(api, rng, c)
        elif a == "plant":
            line = plant(api, rng, c, faction)
        elif a == "unlock":
            line = unlock(api, rng)
        elif a == "priority":
            line = priority(api, rng, buildings)
        else:
            line = "nothing"
        print(line)


if __name__ == "__main__":
    main()
