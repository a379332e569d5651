#!/usr/bin/env python3
"""Reference solutions for the scenarios nobody had solved: science-rush, two-districts,
power-mill, flood-control and feed-40.

Each builds on the scripted reference player (``scripted.py``: it keeps a Normal colony alive)
and adds what its scenario asks, reading the scenario from the first line of the turn's prompt
(``Scenario ID: title``):

- **science-rush** (five unlocks in 40 days): two inventors from the first day (1 science point
  per work-hour each, data/buildings.json ``SciencePoints``), and every turn the cheapest
  unlockables the points buy. The five cheapest Folktails unlocks cost 30 + 40 + 50 + 50 + 70 = 240
  points: 7.5 days of two inventors at 16 work-hours.
- **two-districts** (a second district founded and linked to the first by a district crossing,
  the colony alive at day 40): a district center placed on the first turn on the farthest
  joinable spot 34 to 14 tiles from the first center's doorstep, on its level (nearer rings only
  where the land farther off is out of a path's reach), first in the builders' queue. Once it
  stands, the district crossing is unlocked (600 science, given) and placed where its front
  doorstep reaches the first district's paths and its back doorstep the second's (a few path
  tiles laid to each, the districts of both doorsteps checked through ``GET /api/buildings``
  before keeping it), first in the builders' queue, and staffed with two. The first district
  keeps six days of water and food above what crosses (export thresholds). Adults migrate only
  once the second district's own stores hold water and food.
- **power-mill** (a lumber mill on water power, 50 planks in 15 days; the vertical power shaft
  unlocked and gears stored): water wheels in a row on the river's bed (the fewest that give
  60 hp, 135 hp per m3/s of flow each), a vertical power shaft on the step tile beside the first
  with a power shaft on top at the bank's level, and a mill on the home bank touching that shaft;
  work all day, piles, gatherers and lumberjacks from the industry agent.
- **flood-control** (a floodgate driven by a depth sensor, the colony alive at day 20): the
  scripted player, and a floodgate on the river's channel near home with a depth sensor beside
  it, linked (On shuts the gate) and set to mode Less at 3/4 of the depth it measured.
- **feed-40**: the scripted player's needs (not solved yet).

Stateless like ``scripted.py``: every turn it reads the colony and does what is missing. Per-turn
(``colony eval --agent 'python3 agents/scenarios.py'``) or persistent (``--agent-mode persistent``
with ``--persistent``).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import industry  # noqa: E402
import scripted  # noqa: E402
from scripted import Turn  # noqa: E402

# --- which scenario ----------------------------------------------------------------------------


def scenario_of(prompt: str) -> str:
    """The scenario id from the prompt's first line (``Scenario ID: title``)."""
    first = prompt.strip().splitlines()[0] if prompt.strip() else ""
    words = first.replace(":", " ").split()
    if len(words) >= 2 and words[0].lower() == "scenario":
        return words[1].lower()
    return ""


# --- science-rush ------------------------------------------------------------------------------

INVENTORS = 2


def inventors(t: Turn, wanted: int) -> None:
    dc = (t.dc["x"], t.dc["y"])
    while t.count(t.kit.inventor) < wanted:
        placed = t.place(t.kit.inventor, dc, scripted.REACH // 2, "science points")
        if placed is None:
            return
        t.prioritize(placed)


def cheapest_unlocks(t: Turn, most: int = 99) -> None:
    """Unlocks the cheapest buildings the points buy, cheapest first."""
    sci = t.c.science()
    points = sci.get("points", t.summary.get("science", 0))
    rows = sorted(
        (u for u in sci["unlockables"] if not u["unlocked"]),
        key=lambda u: u["cost"],
    )
    done = 0
    for u in rows:
        if u["cost"] > points or done >= most:
            break
        try:
            t.c.science_unlock(building=u["name"])
        except colony.ColonyError as e:
            t.say(f"could not unlock {u['name']}: {e}")
            continue
        points -= u["cost"]
        done += 1
        t.say(f"unlocked {u['name']} for {u['cost']} science ({points} left)")


def science_rush(t: Turn) -> None:
    scripted.streets(t)
    scripted.pumps(t)
    scripted.first_tank(t)
    inventors(t, INVENTORS)
    cheapest_unlocks(t)
    scripted.log_pile(t)
    scripted.first_warehouse(t)
    # (No farms beyond one per ten beavers: their workers would leave the inventors unstaffed.)
    scripted.food(t, more_farms=False)
    scripted.wood(t)
    scripted.storage(t)
    scripted.homes(t)
    scripted.tanks(t)


# --- two-districts -----------------------------------------------------------------------------

# Steps of path from the first center's doorstep to the second's: far enough that the first
# district's pumps, farms and homes (within scripted.REACH of its center) stay nearer the first.
SECOND_DC_DISTANCE = 34
# Adults sent to the second district once it stands.
MIGRANTS = 3


def centers(t: Turn) -> list[dict[str, Any]]:
    return t.of("DistrictCenter")


def second_center(t: Turn) -> dict[str, Any] | None:
    """The district center this agent placed (any but the first), or None."""
    rest = [b for b in centers(t) if (b["x"], b["y"]) != (t.dc["x"], t.dc["y"])]
    return rest[0] if rest else None


def place_second_center(t: Turn) -> None:
    prefab = t.name("DistrictCenter")
    door = (t.dc["entranceX"], t.dc["entranceY"])
    # The start area is one level; land farther off often lies higher or lower, out of a path's
    # reach: the farthest joinable spot wins, nearer rings only when no farther one is.
    for d in range(SECOND_DC_DISTANCE, 13, -4):
        if place_center_at(t, prefab, door, d):
            return
    t.say("found no spot for a second district center")


def place_center_at(t: Turn, prefab: str, door: tuple[int, int], d: int) -> bool:
    offsets = [(0, -d), (d, 0), (0, d), (-d, 0), (d, d), (-d, d), (d, -d), (-d, -d)]
    for dx, dy in offsets:
        cx, cy = door[0] + dx, door[1] + dy
        if not (4 <= cx < t.map_w - 4 and 4 <= cy < t.map_h - 4):
            continue
        try:
            found = t.c.placement_find(prefab=prefab, **t.box(cx, cy, 6))["placements"]
        except colony.ColonyError:
            continue
        for s in found:
            # On the first center's level only: a path climbs no step without stairs, which
            # are locked (seed 1 put a center two levels up, never reached in 40 days).
            if (
                s.get("flooded")
                or s.get("z") != t.dc["z"]
                or s.get("groundSteps", -1) < 0
                and not s.get("reachable")
            ):
                continue
            try:
                placed = t.c.building_place(
                    prefab=prefab,
                    x=s["x"],
                    y=s["y"],
                    z=s["z"],
                    orientation=s["orientation"],
                )
            except colony.ColonyError:
                continue
            if not s.get("pathAccess") and not t.connect(s):
                t.c.building_demolish(id=placed["id"])
                continue
            t.say(
                f"placed a second district center at ({s['x']}, {s['y']}), "
                f"its doorstep at ({s['entranceX']}, {s['entranceY']})"
            )
            b = {**placed, **s, "name": prefab, "finished": False}
            t.buildings.append(b)
            t.prioritize(b, workplace=False)
            for good, n in t.costs().get(prefab, {}).items():
                t.stock[good] = int(t.stock.get(good, 0) - n)
            t.reserved += 60
            return True
    return False


def second_district(t: Turn) -> None:
    dc2 = second_center(t)
    if dc2 is None:
        place_second_center(t)
        return
    if not dc2.get("finished"):
        t.reserved += 60
        return
    districts = t.c.districts()
    if len(districts) < 2:
        return
    # (Listed in building-id order: the second center's district can come first.)
    first = scripted.home_district(districts)
    second = next(d for d in districts if d["name"] != first["name"])
    crossing(t, first["name"], second["name"])
    distribution(t, first, second)
    pop2 = second["population"]["adults"]
    # Migrants live on the second district's own stores (filled across the crossing): without
    # water and food there they would die of thirst, as they did in the first tries.
    res = second.get("resources") or {}

    def held(good: str) -> float:
        v = res.get(good, 0)
        return float(v.get("all", 0) if isinstance(v, dict) else v)

    food = sum(held(g) for g in res if g not in ("Water", "Log", "Plank"))
    if held("Water") < 10 * MIGRANTS or food < 10 * MIGRANTS:
        return
    if pop2 < MIGRANTS and first["population"]["adults"] > 6:
        try:
            t.c.district_migrate(
                from_=first["name"], to=second["name"], count=MIGRANTS - pop2
            )
            t.say(f"{MIGRANTS - pop2} adults migrate to {second['name']}")
        except colony.ColonyError as e:
            t.say(f"no migration: {e}")


# --- the district crossing ---------------------------------------------------------------------

CROSSING = "DistrictCrossing"
# Workers carrying goods across (the crossing's maxWorkers is 10: they come from the first
# district, which keeps its own work going).
CROSSING_WORKERS = 2
# Tiles of new path at most from a crossing's doorstep to the district's network it joins.
CROSSING_REACH = 5
# Crossing spots tried per turn at most (each a placement, paths and a check).
CROSSING_TRIES = 12
# Orientations in the game's order (geometry::Orientation::ALL): half round is two steps on.
ORIENTATIONS = ("south", "west", "north", "east")
# The first district keeps this many days of its own drinking and eating above what crosses.
KEEP_DAYS = 6


def crossing(t: Turn, first: str, second: str) -> None:
    """A district crossing whose front doorstep joins the first district's paths and whose back
    doorstep (the same door turned half round) the second's: the two districts linked. Built by
    the first district (the front's), which also staffs it."""
    mine = t.of(CROSSING)
    if mine:
        b = mine[0]
        if b.get("finished") and b.get("desiredWorkers") != CROSSING_WORKERS:
            set_workers(t, b)
        return
    if not unlock(t, CROSSING):
        return
    if not t.affordable(CROSSING):
        t.say(f"cannot afford {CROSSING} yet")
        t.reserved += int(t.costs().get(t.name(CROSSING), {}).get("Log", 0))
        return
    z = t.dc["z"]
    paths = path_districts(t, z)
    boundary = [
        p
        for p, d in paths.items()
        if d == first and any(paths.get(n) == second for n in neighbours(p))
    ]
    if (
        not boundary
    ):  # (the networks are apart: any of the second district's paths will do)
        boundary = [p for p, d in paths.items() if d == second]
    if not boundary:
        return
    tried = 0
    for x, y, o, f_door, front, b_door, back in crossing_spots(
        t, paths, boundary, first, second
    ):
        if tried >= CROSSING_TRIES:
            break
        try:
            placed = t.c.building_place(
                prefab=t.name(CROSSING), x=x, y=y, z=z, orientation=o
            )
        except colony.ColonyError:
            continue
        tried += 1
        ok = lay(t, front, z) and lay(t, back, z)
        if ok:
            now = path_districts(t, z, fresh=True)
            ok = now.get(f_door) == first and now.get(b_door) == second
        if not ok:
            try:
                t.c.building_demolish(id=placed["id"])
            except colony.ColonyError:
                pass
            continue
        for good, n in t.costs()[t.name(CROSSING)].items():
            t.stock[good] = int(t.stock.get(good, 0) - n)
        t.prioritize({"id": placed["id"]}, workplace=False)
        t.say(
            f"placed a district crossing at ({x}, {y}) facing {o}: its doorstep {f_door} "
            f"on {first}'s paths, its back doorstep {b_door} on {second}'s"
        )
        return
    t.say(f"found no spot for a district crossing between {first} and {second}")


def unlock(t: Turn, base: str) -> bool:
    """Unlocks a building with science unless it is; whether it is unlocked now."""
    if t.name(base) in t.costs():
        return True
    try:
        t.c.science_unlock(building=t.name(base))
    except colony.ColonyError as e:
        t.say(f"could not unlock {base}: {e}")
        return False
    t.say(f"unlocked {base}")
    t._costs = None
    return t.name(base) in t.costs()


def set_workers(t: Turn, b: dict[str, Any]) -> None:
    try:
        t.c.building_workers(id=b["id"], count=CROSSING_WORKERS)
        t.say(f"{CROSSING_WORKERS} workers for the district crossing")
    except colony.ColonyError as e:
        t.say(f"no workers for the district crossing: {e}")


def path_districts(t: Turn, z: int, fresh: bool = False) -> dict[tuple[int, int], str]:
    """Path tiles at level z and the district each belongs to (the nearest center along the
    network)."""
    rows = t.c.buildings(limit=0, detail="full") if fresh else t.buildings
    return {
        (b["x"], b["y"]): b["district"]
        for b in rows
        if b["name"] == "Path" and b["z"] == z and b.get("district")
    }


def neighbours(p: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = p
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def free_tiles(t: Turn, box: dict[str, int], z: int) -> set[tuple[int, int]]:
    """Dry tiles of the box at level z with nothing on them (no building, path or plant)."""
    return {
        (k["x"], k["y"])
        for k in t.c.tiles(**box)["tiles"]
        if k.get("terrain") == z and not k.get("water") and not k.get("occupants")
    }


def attach(
    paths: dict[tuple[int, int], str],
    free: set[tuple[int, int]],
    blocked: set[tuple[int, int]],
    door: tuple[int, int],
    district: str,
) -> list[tuple[int, int]] | None:
    """The new path tiles from a doorstep (first) to the district's paths, fewest first (empty
    when the doorstep is one of its paths), or None: only over free tiles that touch no other
    district's path, so the new tiles stay in the district."""
    if door in paths:
        return [] if paths[door] == district else None
    if door not in free or door in blocked:
        return None
    prev: dict[tuple[int, int], tuple[int, int] | None] = {door: None}
    frontier = [door]
    for _ in range(CROSSING_REACH):
        nxt = []
        for p in frontier:
            near = [n for n in neighbours(p) if n in paths]
            if any(paths[n] != district for n in near):
                continue
            if near:
                route = []
                q: tuple[int, int] | None = p
                while q is not None:
                    route.append(q)
                    q = prev[q]
                return route[::-1]
            for n in neighbours(p):
                if n not in prev and n in free and n not in blocked:
                    prev[n] = p
                    nxt.append(n)
        frontier = nxt
    return None


def crossing_spots(
    t: Turn,
    paths: dict[tuple[int, int], str],
    boundary: list[tuple[int, int]],
    first: str,
    second: str,
):
    """Crossing placements whose front doorstep reaches the first district's paths and back
    doorstep the second's, on free level ground: fewest new path tiles first, then nearest where
    the districts meet. Yields (x, y, orientation, front doorstep, its route, back doorstep, its
    route), each route the new path tiles from the doorstep on."""
    sx, sy = next(
        (
            (int(p["sizeX"]), int(p["sizeY"]))
            for p in t.c.prefabs()
            if p["name"] == t.name(CROSSING)
        ),
        (2, 3),
    )
    z = t.dc["z"]
    seconds = [p for p, d in paths.items() if d == second]
    r = CROSSING_REACH + sy + 2
    box = t.box(
        (min(x for x, _ in seconds) + max(x for x, _ in seconds)) // 2,
        (min(y for _, y in seconds) + max(y for _, y in seconds)) // 2,
        max(
            max(x for x, _ in seconds) - min(x for x, _ in seconds),
            max(y for _, y in seconds) - min(y for _, y in seconds),
        )
        // 2
        + r,
    )
    free = free_tiles(t, box, z)
    spots = []
    for x in range(box["x1"], box["x2"] + 1):
        for y in range(box["y1"], box["y2"] + 1):
            for oi, o in enumerate(ORIENTATIONS):
                w, d = (sy, sx) if o in ("west", "east") else (sx, sy)
                foot = {(x + i, y + j) for i in range(w) for j in range(d)}
                if not foot <= free:
                    continue
                fd = doorstep(x, y, sx, sy, oi)
                front = attach(paths, free, foot, fd, first)
                if front is None:
                    continue
                bd = doorstep(x, y, sx, sy, (oi + 2) % 4)
                back = attach(paths, free, foot, bd, second)
                if back is None or set(front) & set(back):
                    continue
                near = min(abs(x - bx) + abs(y - by) for bx, by in boundary)
                spots.append(
                    (len(front) + len(back), near, x, y, o, fd, front, bd, back)
                )
    spots.sort()
    for _, _, x, y, o, fd, front, bd, back in spots:
        yield x, y, o, fd, front, bd, back


def doorstep(x: int, y: int, sx: int, sy: int, oi: int) -> tuple[int, int]:
    """A building's doorstep at (x, y) turned to ORIENTATIONS[oi] (its entrance one tile before
    the middle of its front row, as crates/sim geometry::doorstep)."""
    lx, ly = (sx - 1) // 2, -1
    dx, dy = [
        (lx, ly),
        (ly, sx - 1 - lx),
        (sx - 1 - lx, sy - 1 - ly),
        (sy - 1 - ly, lx),
    ][oi]
    return x + dx, y + dy


def lay(t: Turn, route: list[tuple[int, int]], z: int) -> bool:
    """Paths on the route's tiles (free tiles, checked by the spot search)."""
    for x, y in route:
        try:
            t.c.building_place(prefab="Path", x=x, y=y, z=z, orientation="south")
        except colony.ColonyError:
            return False
    return True


def distribution(t: Turn, first: dict[str, Any], second: dict[str, Any]) -> None:
    """Goods move on Auto (the two districts evened out); the first district keeps KEEP_DAYS of
    its own water and food above what crosses (export thresholds, set as it grows)."""
    pop = first["population"]
    eaters = pop["adults"] + pop["children"]
    res = first.get("resources") or {}
    wanted = {"Water": round(eaters * scripted.WATER_PER_BEAVER_DAY * KEEP_DAYS)}
    foods = [
        g for g in res if g not in ("Water", "Log", "Plank", "Gear", "TreatedPlank")
    ]
    for g in foods:
        wanted[g] = round(
            eaters * scripted.FOOD_PER_BEAVER_DAY * KEEP_DAYS / len(foods)
        )
    for good, n in wanted.items():
        try:
            t.c.set_distribution(
                district=first["name"], good=good, import_="Auto", export_threshold=n
            )
        except colony.ColonyError as e:
            t.say(f"no distribution for {good}: {e}")
            return


def two_districts(t: Turn) -> None:
    scripted.streets(t)
    scripted.pumps(t)
    scripted.first_tank(t)
    second_district(t)
    scripted.log_pile(t)
    scripted.first_warehouse(t)
    scripted.food(t)
    scripted.wood(t)
    scripted.storage(t)
    scripted.homes(t)
    scripted.tanks(t)


# --- feed-40 -----------------------------------------------------------------------------------


def feed_40(t: Turn) -> None:
    for need in (
        scripted.streets,
        scripted.pumps,
        scripted.first_tank,
        scripted.log_pile,
        scripted.first_warehouse,
        scripted.food,
        scripted.wood,
        scripted.storage,
        scripted.homes,
        scripted.tanks,
        scripted.science,
        scripted.forestry,
    ):
        need(t)


# --- power-mill --------------------------------------------------------------------------------

# A water wheel gives 135 hp at 1 m3/s of flow under it and less in proportion (data/buildings.json,
# crates/sim/src/power); the mill asks 50 hp: wheels side by side add up to at least this much.
WHEEL_HP_PER_FLOW = 135
MILL_HP = 60
# Wheels joined in a row at most (each 50 logs): where the bank is slow, a second wheel farther
# out in the stream adds its power to the first's.
MAX_WHEELS = 3
# How far (tiles) from the district center the river is searched for wheels.
RIVER_REACH = 30
# Plans tried per turn at most (each a few placements, undone when the mill cannot join).
PLAN_TRIES = 12
# What joins the first wheel (on the river's bed) to a mill on the bank: a vertical shaft on the
# step of shallow ground between them, and a shaft on top of it at the bank's level.
BRIDGE = ("VerticalPowerShaft", "PowerShaft")

Rect = tuple[int, int, int, int]
Tile = tuple[int, int]


@dataclass
class MillPlan:
    """Wheels in a row on the river's bed, the first beside a step tile whose bank the district's
    paths reach."""

    wheels: list[dict[str, Any]]
    step: Tile

    def hp(self) -> float:
        return sum(WHEEL_HP_PER_FLOW * min(1.0, flow(w)) for w in self.wheels)


def flow(spot: dict[str, Any]) -> float:
    return float((spot.get("inReach") or {}).get("flow", 0.0))


def footprint(t: Turn, base: str, s: dict[str, Any]) -> Rect:
    """A spot's footprint (x, y, w, d) for a prefab base name."""
    return industry.rect(t, {**s, "name": t.name(base)})


def wheel_spots(t: Turn) -> list[dict[str, Any]]:
    """Every water wheel spot on flowing water near the district center (the service answers
    ten spots at most a box: it is asked strip by strip)."""
    box = t.box(t.dc["x"], t.dc["y"], RIVER_REACH)
    found: list[dict[str, Any]] = []
    for y in range(box["y1"], box["y2"] + 1, 2):
        strip = {**box, "y1": y, "y2": min(box["y2"], y + 1)}
        try:
            found += t.c.placement_find(prefab=t.name("WaterWheel"), **strip)[
                "placements"
            ]
        except colony.ColonyError:
            continue
    return found


def home_bank(t: Turn) -> tuple[dict[Tile, int], set[Tile]]:
    """Terrain heights around the district center, and the free dry tiles at its level that
    connect to its doorstep over such tiles (the bank a path reaches; the far bank is out, and
    so is ground under trees or buildings)."""
    box = t.box(t.dc["x"], t.dc["y"], RIVER_REACH + 4)
    tiles = t.c.tiles(**box)["tiles"]
    heights = {(k["x"], k["y"]): k["terrain"] for k in tiles}
    z = t.dc["z"]
    free = {
        (k["x"], k["y"])
        for k in tiles
        if k["terrain"] == z
        and k.get("water", 0) <= 0.05
        and all(o["name"] == "Path" for o in k.get("occupants", []))
    }
    start = (t.dc["entranceX"], t.dc["entranceY"])
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in free and n not in seen:
                seen.add(n)
                todo.append(n)
    return heights, seen


def mill_fits(t: Turn, step: Tile, bank: set[Tile]) -> bool:
    """Whether a lumber mill fits on free bank tiles touching the step tile."""
    sx, sy = industry.size_of(t, t.name("LumberMill"))
    for w, d in ((sx, sy), (sy, sx)):
        for x in range(step[0] - w, step[0] + 2):
            for y in range(step[1] - d, step[1] + 2):
                r = (x, y, w, d)
                if industry.touching(r, (*step, 1, 1)) and cells(r) <= bank:
                    return True
    return False


def cells(r: Rect) -> set[Tile]:
    x, y, w, d = r
    return {(x + i, y + j) for i in range(w) for j in range(d)}


def mill_plans(t: Turn) -> list[MillPlan]:
    """Ways to power a mill on the home bank: a first wheel beside a step tile under the bank,
    with wheels added beside the row, the fastest water first, until they give MILL_HP. Fewest
    wheels first, then nearest the district center."""
    spots = [s for s in wheel_spots(t) if flow(s) > 0]
    heights, bank = home_bank(t)
    door = {"x": t.dc["entranceX"], "y": t.dc["entranceY"]}
    plans = []
    for first in spots:
        z = first["z"]
        inside = cells(footprint(t, "WaterWheel", first))
        steps = [
            p
            for p in sorted({n for c in inside for n in neighbours(c)} - inside)
            if heights.get(p) == z + 1 and mill_fits(t, p, bank)
        ]
        if not steps:
            continue
        wheels = grow_row(t, first, spots)
        if wheels:
            plans.append(MillPlan(wheels, steps[0]))
    plans.sort(
        key=lambda p: (
            len(p.wheels),
            scripted.steps({"x": p.step[0], "y": p.step[1]}, door),
        )
    )
    return plans


def grow_row(
    t: Turn, first: dict[str, Any], spots: list[dict[str, Any]]
) -> list[dict[str, Any]] | None:
    """The first wheel and the fewest more touching the row (fastest water first) to give
    MILL_HP, or None."""
    row = [first]
    taken = cells(footprint(t, "WaterWheel", first))
    while MillPlan(row, (0, 0)).hp() < MILL_HP:
        if len(row) >= MAX_WHEELS:
            return None
        rects = [footprint(t, "WaterWheel", w) for w in row]
        beside = [
            s
            for s in spots
            if s["z"] == first["z"]
            and not cells(footprint(t, "WaterWheel", s)) & taken
            and any(industry.touching(footprint(t, "WaterWheel", s), r) for r in rects)
        ]
        if not beside:
            return None
        best = max(beside, key=flow)
        row.append(best)
        taken |= cells(footprint(t, "WaterWheel", best))
    return row


def put_part(
    t: Turn, base: str, x: int, y: int, z: int, o: str
) -> dict[str, Any] | None:
    """Places a doorless part (wheel, shaft): builders reach it from a path within range."""
    prefab = t.name(base)
    try:
        placed = t.c.building_place(prefab=prefab, x=x, y=y, z=z, orientation=o)
    except colony.ColonyError:
        return None
    b = {"id": placed["id"], "name": prefab, "x": x, "y": y, "z": z, "orientation": o}
    t.buildings.append({**b, "finished": False})
    return b


def mill_beside(t: Turn, shaft: Tile, z: int, wheel: Rect) -> dict[str, Any] | None:
    """A lumber mill on the bank (level z) touching the shaft's tile, clear of the wheel, joined
    to the district's paths."""
    base = "LumberMill"
    tx, ty = shaft
    for y in range(ty - 3, ty + 2):
        box = {**t.box(tx, ty, 4), "y1": y, "y2": y}
        try:
            found = t.c.placement_find(prefab=t.name(base), **box)["placements"]
        except colony.ColonyError:
            continue
        for s in found:
            r = footprint(t, base, s)
            if s["z"] != z or not scripted.joinable(s, plaza=2):
                continue
            if not industry.touching(r, (tx, ty, 1, 1)) or industry.overlaps(r, wheel):
                continue
            if (s["entranceX"], s["entranceY"]) == shaft:
                continue
            placed = industry.put(t, base, s, "planks on water power")
            if placed:
                return placed
    return None


def undo(t: Turn, parts: list[dict[str, Any]]) -> None:
    """Takes down sites placed this turn (nothing was delivered to them yet)."""
    for p in parts:
        try:
            t.c.building_demolish(id=p["id"])
        except colony.ColonyError:
            pass
        t.buildings = [b for b in t.buildings if b["id"] != p["id"]]


def mill_parts(t: Turn) -> list[dict[str, Any]]:
    return (
        t.of("LumberMill")
        + t.of("WaterWheel")
        + [b for base in BRIDGE for b in t.of(base)]
    )


def water_mill(t: Turn) -> None:
    """Water wheels on the river's bed, a vertical shaft on the step beside the first with a
    shaft on top, and a lumber mill on the bank touching that shaft: one network, first in every
    queue."""
    if t.of("LumberMill"):
        for b in mill_parts(t):
            if not b.get("finished"):
                t.prioritize(b, workplace=b["name"] == t.name("LumberMill"))
        return
    plans = mill_plans(t)
    for plan in plans[:PLAN_TRIES]:
        if not affordable(t, len(plan.wheels)):
            t.say(f"cannot afford a mill with {len(plan.wheels)} water wheels yet")
            return
        if join(t, plan):
            return
    t.say(
        f"found no spot where water wheels, shafts and a mill join ({len(plans)} plans)"
    )


def affordable(t: Turn, wheels: int) -> bool:
    need: dict[str, float] = {}
    for base, n in (
        ("WaterWheel", wheels),
        ("LumberMill", 1),
        (BRIDGE[0], 1),
        (BRIDGE[1], 1),
    ):
        for g, k in t.costs().get(t.name(base), {}).items():
            need[g] = need.get(g, 0) + n * k
    return all(t.stock.get(g, 0) >= n for g, n in need.items())


def join(t: Turn, plan: MillPlan) -> bool:
    """Places the plan's wheels, the shafts on its step and a mill beside them; undone unless
    all of it stands."""
    z = plan.wheels[0]["z"]
    pieces = [("WaterWheel", w["x"], w["y"], z, w["orientation"]) for w in plan.wheels]
    pieces += [
        (BRIDGE[0], *plan.step, z + 1, "south"),
        (BRIDGE[1], *plan.step, z + 2, "south"),
    ]
    parts = []
    for base, x, y, zz, o in pieces:
        p = put_part(t, base, x, y, zz, o)
        if p is None:
            undo(t, parts)
            return False
        parts.append(p)
    mill = mill_beside(t, plan.step, z + 2, footprint(t, "WaterWheel", plan.wheels[0]))
    if mill is None:
        undo(t, parts)
        return False
    for p in parts:
        for g, n in t.costs()[p["name"]].items():
            t.stock[g] = int(t.stock.get(g, 0) - n)
    for p in [mill, *parts]:
        t.prioritize(p, workplace=p is mill)
    wheels = ", ".join(
        f"({w['x']}, {w['y']}) {w['orientation']} on {flow(w):.2f} m3/s"
        for w in plan.wheels
    )
    t.say(
        f"water wheels at {wheels} (about {plan.hp():.0f} hp), shafts at {plan.step} "
        f"(levels {z + 1} and {z + 2}), lumber mill at ({mill['x']}, {mill['y']})"
    )
    return True


def power_mill(t: Turn) -> None:
    """The water-powered mill first, then what keeps it going: work all day, a pile for logs,
    a warehouse and gatherers for food, lumberjacks, a pile for the planks."""
    industry.work_all_day(t)
    water_mill(t)
    industry.pile_for(
        t, "Log", "room for logs: the district center takes no deliveries"
    )
    scripted.first_warehouse(t)
    industry.gatherers(t)
    industry.lumberjacks(t, wanted=2)
    industry.pile_for(t, "Plank", "room for planks")
    if t.summary["projections"].get("waterDays", 99) < 4:
        scripted.pumps(t)
        scripted.first_tank(t)


# --- flood-control -----------------------------------------------------------------------------

# How far (tiles) from the district center's doorstep the river is searched for the gate.
GATE_REACH = 24
# Water at least this deep is the river's channel (the bed); the shallow step beside it and the
# film over the banks dry first.
GATE_MIN_DEPTH = 0.5
# The sensor turns On (the gate shuts) when the water on its tile falls below this share of the
# depth it had when the agent configured it: a drought's first days.
LOW_WATER_SHARE = 0.75
# Gate spots tried per turn at most.
GATE_TRIES = 10


def water_tiles(t: Turn) -> dict[Tile, dict[str, Any]]:
    """The tiles under water around the district center's doorstep."""
    box = t.box(t.dc["entranceX"], t.dc["entranceY"], GATE_REACH)
    return {
        (k["x"], k["y"]): k
        for k in t.c.tiles(**box)["tiles"]
        if k.get("water", 0) > 0.05
    }


def floodgate(t: Turn) -> None:
    """A floodgate on the river's channel near home, a depth sensor in the water beside it,
    linked (sensor -> gate) and set so the gate shuts when the water runs low and opens when it
    is high. Builders reach both from a path on the bank (a doorless building needs one within
    10 tiles): a path is laid to the nearest bank tile."""
    gates, sensors = t.of("Floodgate"), t.of("DepthSensor")
    if not gates:
        place_gate(t)
        return
    gate = gates[0]
    if not sensors:
        place_sensor(t, gate)
        return
    link_sensor(t, sensors[0], gate)


def place_gate(t: Turn) -> None:
    if not t.affordable("Floodgate", keep=t.reserved):
        t.say("cannot afford a floodgate yet")
        return
    water = water_tiles(t)
    door = {"x": t.dc["entranceX"], "y": t.dc["entranceY"]}
    channel = sorted(
        (p for p, k in water.items() if k["water"] >= GATE_MIN_DEPTH),
        key=lambda p: scripted.steps({"x": p[0], "y": p[1]}, door),
    )
    for x, y in channel[:GATE_TRIES]:
        z = water[(x, y)]["terrain"]
        placed = put_part(t, "Floodgate", x, y, z, "south")
        if placed is None:
            continue
        if not reach_part(t, placed):
            undo(t, [placed])
            continue
        t.prioritize(placed, workplace=False)
        t.say(f"placed a floodgate on the river at ({x}, {y}, {z})")
        return
    t.say("found no spot on the river for a floodgate")


def reach_part(t: Turn, part: dict[str, Any]) -> bool:
    """Whether builders reach a doorless part, after a path to the nearest free bank tile if
    they did not."""
    if view(t, part["id"]).get("reachable"):
        return True
    _, bank = home_bank(t)
    near = sorted(bank, key=lambda p: abs(p[0] - part["x"]) + abs(p[1] - part["y"]))
    for bx, by in near[:3]:
        if t.connect({"entranceX": bx, "entranceY": by}):
            break
    return bool(view(t, part["id"]).get("reachable"))


def view(t: Turn, bid: int) -> dict[str, Any]:
    """One building's full view (empty when it is gone)."""
    try:
        rows = t.c.buildings(id=bid, limit=0, detail="full")
    except colony.ColonyError:
        return {}
    return rows[0] if rows else {}


def place_sensor(t: Turn, gate: dict[str, Any]) -> None:
    """A depth sensor on a water tile beside the gate, the deepest first."""
    if not t.affordable("DepthSensor", keep=t.reserved):
        t.say("cannot afford a depth sensor yet")
        return
    water = water_tiles(t)
    beside = sorted(
        (p for p in neighbours((gate["x"], gate["y"])) if p in water),
        key=lambda p: -water[p]["water"],
    )
    for x, y in beside:
        placed = put_part(t, "DepthSensor", x, y, water[(x, y)]["terrain"], "south")
        if placed is None:
            continue
        if not reach_part(t, placed):
            undo(t, [placed])
            continue
        t.prioritize(placed, workplace=False)
        t.say(f"placed a depth sensor beside the floodgate at ({x}, {y})")
        link_sensor(t, placed, gate)
        return
    t.say(
        f"found no water beside the floodgate at ({gate['x']}, {gate['y']}) for a sensor"
    )


def link_sensor(t: Turn, sensor: dict[str, Any], gate: dict[str, Any]) -> None:
    """The sensor drives the gate: On (water below the threshold) shuts it, Off opens it. Set
    once: mode Less, the threshold LOW_WATER_SHARE of the depth on the sensor's tile now."""
    auto = view(t, gate["id"]).get("automation") or {}
    if any(i.get("id") == sensor["id"] for i in auto.get("inputs", [])):
        return
    depth = (
        water_tiles(t).get((sensor["x"], sensor["y"]), {}).get("water", GATE_MIN_DEPTH)
    )
    threshold = round(max(0.2, LOW_WATER_SHARE * depth), 2)
    try:
        t.c.automation_configure(id=sensor["id"], property="mode", value="Less")
        t.c.automation_configure(
            id=sensor["id"], property="threshold", value=str(threshold)
        )
        t.c.automation_link(source_id=sensor["id"], target_id=gate["id"])
    except colony.ColonyError as e:
        t.say(f"could not link the depth sensor to the floodgate yet: {e}")
        return
    t.say(
        f"linked the depth sensor at ({sensor['x']}, {sensor['y']}) to the floodgate: it shuts "
        f"when the water there is under {threshold} (now {depth:.2f}) and opens above"
    )


def automation_note(t: Turn) -> None:
    """The gate's and the sensor's automation state, one line a turn (for the record)."""
    for b in t.of("Floodgate") + t.of("DepthSensor"):
        auto = view(t, b["id"]).get("automation")
        t.say(
            f"{b['name'].split('.')[0]} {b['id']} at ({b['x']}, {b['y']}) "
            f"finished {b.get('finished')}: automation {json.dumps(auto)}"
        )


# The scripted player's needs, in its order (scripted.play): they keep the colony alive.
SURVIVAL = (
    scripted.first_pump,
    scripted.streets,
    scripted.pumps,
    scripted.first_tank,
    scripted.log_pile,
    scripted.first_warehouse,
    scripted.food,
    scripted.labor,
    scripted.early_science,
    scripted.breeding,
    scripted.wood,
    scripted.storage,
    scripted.homes,
    scripted.tanks,
    scripted.science,
    scripted.forestry,
)


def flood_control(t: Turn) -> None:
    """The scripted player's colony, with the floodgate and its sensor once water flows."""
    for need in SURVIVAL[:4]:
        need(t)
    floodgate(t)
    for need in SURVIVAL[4:]:
        need(t)
    automation_note(t)


# --- turns -------------------------------------------------------------------------------------

PLAYS = {
    "science-rush": science_rush,
    "two-districts": two_districts,
    "feed-40": feed_40,
    "power-mill": power_mill,
    "flood-control": flood_control,
}


# Buildings placed per turn at most, by scenario (scripted.MAX_NEW_SITES, which importing
# industry.py raises to 8 for every scenario): power-mill lays out its lab on the first turn.
NEW_SITES = {"power-mill": 8}


def play(c: colony.Colony, prompt: str) -> None:
    sid = scenario_of(prompt)
    scripted.MAX_NEW_SITES = NEW_SITES.get(sid, 4)
    t = Turn(c)
    if t.summary.get("gameOver"):
        return
    t.say(
        f"{sid or 'unknown scenario'}: {t.population} beavers, "
        f"food {t.summary['projections']['foodDays']} days, "
        f"water {t.summary['projections']['waterDays']} days, {t.logs()} logs, "
        f"science {t.summary.get('science', 0)}"
    )
    PLAYS.get(sid, feed_40)(t)


def main() -> None:
    host = os.environ.get("COLONY_HOST", "127.0.0.1")
    port = int(os.environ.get("COLONY_PORT", "8085"))
    if "--persistent" in sys.argv[1:]:
        with colony.Colony(host=host, port=port) as c:
            for line in sys.stdin:
                if not line.strip():
                    continue
                turn = json.loads(line)
                play(c, turn.get("prompt", ""))
                print(json.dumps({"done": True, "turn": turn["turn"]}), flush=True)
        return
    prompt = "" if sys.stdin.isatty() else sys.stdin.read()
    prompt = prompt or os.environ.get("COLONY_PROMPT", "")
    with colony.Colony(host=host, port=port) as c:
        play(c, prompt)


if __name__ == "__main__":
    main()
