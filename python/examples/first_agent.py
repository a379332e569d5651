"""A first agent: reads the colony, builds a water pump where the water is deepest, a tank beside
it and a path from the district center to the pump, then keeps a log of what it did.

Against a running colonyd (or one turn of ``colony eval``, which sets COLONY_HOST/COLONY_PORT):

    python examples/first_agent.py            # COLONY_PORT or 8085
    python examples/first_agent.py --spawn    # start a colonyd of its own (COLONYD or PATH)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import colony


def log(line: str, path: str | None) -> None:
    stamp = time.strftime("%H:%M:%S")
    print(f"[{stamp}] {line}", file=sys.stderr)
    if path:
        with open(path, "a") as f:
            f.write(f"[{stamp}] {line}\n")


def place_first(c: colony.Colony, prefab: str, area: dict[str, int]) -> dict[str, Any] | None:
    """Places the prefab on the best spot the service offers in the area."""
    for spot in c.placement_find(prefab=prefab, **area)["placements"]:
        try:
            placed = c.building_place(
                prefab=prefab,
                x=spot["x"],
                y=spot["y"],
                z=spot["z"],
                orientation=spot["orientation"],
            )
            return {**placed, "entranceX": spot["entranceX"], "entranceY": spot["entranceY"]}
        except colony.ColonyError:
            continue
    return None


def play(c: colony.Colony, logfile: str | None = None) -> dict[str, Any]:
    """One turn: water first. Returns what it built."""
    s = c.summary()
    faction = s["faction"]
    dc = s["districts"][0]["dc"]
    water_days = s["projections"]["waterDays"]
    log(f"day {s['time']['dayNumber']}: {water_days} days of water, faction {faction}", logfile)
    have = {b["name"] for b in c.buildings(limit=0)}
    pump = "WaterPump" if faction == "Folktails" else "DeepWaterPump"
    pump, tank = f"{pump}.{faction}", f"SmallTank.{faction}"
    built: dict[str, Any] = {}
    near = {
        "x1": max(dc["x"] - 30, 0),
        "y1": max(dc["y"] - 30, 0),
        "x2": dc["x"] + 30,
        "y2": dc["y"] + 30,
    }
    size = c.tiles(x1=0, y1=0, x2=0, y2=0)["mapSize"]
    near["x2"], near["y2"] = min(near["x2"], size["x"] - 1), min(near["y2"], size["y"] - 1)
    if pump not in have:
        placed = place_first(c, pump, near)
        if placed is None:
            log("no spot for a pump near the district center", logfile)
            return built
        built["pump"] = placed
        log(f"placed {pump} at ({placed['x']}, {placed['y']})", logfile)
        answer = c.path_place(
            x1=dc["entranceX"], y1=dc["entranceY"], x2=placed["entranceX"], y2=placed["entranceY"]
        )
        log(f"path: {answer['placed']} placed, errors {answer.get('errors', [])}", logfile)
        built["path"] = answer["placed"]
    if tank not in have:
        placed = place_first(c, tank, near)
        if placed is not None:
            built["tank"] = placed
            log(f"placed {tank} at ({placed['x']}, {placed['y']})", logfile)
    return built


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--spawn", action="store_true", help="start a colonyd of its own")
    ap.add_argument("--log", default=os.environ.get("FIRST_AGENT_LOG", "first-agent.log"))
    a = ap.parse_args()
    if a.spawn:
        with colony.spawn(seed=7) as game, game.client() as c:
            play(c, a.log)
            c.game_advance(days=2)
            log(f"after two days: {c.summary()['projections']}", a.log)
        return 0
    host = os.environ.get("COLONY_HOST", "127.0.0.1")
    port = int(os.environ.get("COLONY_PORT", "8085"))
    with colony.Colony(host, port, os.environ.get("COLONY_TOKEN")) as c:
        play(c, a.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
