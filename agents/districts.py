"""two-districts: a second district founded and linked to the first by a district crossing, the
colony alive at day 40. Played by ``scenarios.py``, on the scripted reference player
(``scripted.py``).

A district center is placed on the first turn on the farthest joinable spot 34 to 14 tiles from
the first center's doorstep, on its level (nearer rings only where the land farther off is out of
a path's reach), first in the builders' queue. Once it stands, the district crossing is unlocked
(600 science, given) and placed where its front doorstep reaches the first district's paths and
its back doorstep the second's (a few path tiles laid to each, the districts of both doorsteps
checked through ``GET /api/buildings`` before keeping it), first in the builders' queue, and
staffed with two. The first district keeps six days of water and food above what crosses (export
thresholds). Adults migrate only once the second district's own stores hold water and food.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scripted  # noqa: E402
from industry_kit import neighbours  # noqa: E402
from scripted import Turn  # noqa: E402

# --- two-districts -----------------------------------------------------------------------------

# Steps of path from the first center's doorstep to the second's: far enough that the first
# district's pumps, farms and homes (within scripted.REACH of its center) stay nearer the first.
SECOND_DC_DISTANCE = 34
# Adults sent to the second district once it stands.
MIGRANTS = 3
# Steps (Manhattan, doorstep to doorstep) a building of the first district's needs stands nearer
# its center than the second's: the nearest center along the paths takes a building in, and one
# in the second district waits for builders and workers that never come there (seed 18: both
# farms placed beside the second center, never built, everyone dead of hunger on day 9).
FIRST_MARGIN = 4
# A farm beyond one per scripted.BEAVERS_PER_FARM only while this many adults are out of work (a
# farm's three workers).
FARM_WORKERS = 3


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
            placed = t.put_on(prefab, s)
            if placed is None:
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
            t.c.district_migrate(from_=first["name"], to=second["name"], count=MIGRANTS - pop2)
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
    if not boundary:  # (the networks are apart: any of the second district's paths will do)
        boundary = [p for p, d in paths.items() if d == second]
    if not boundary:
        return
    tried = 0
    for x, y, o, f_door, front, b_door, back in crossing_spots(t, paths, boundary, first, second):
        if tried >= CROSSING_TRIES:
            break
        try:
            placed = t.c.building_place(prefab=t.name(CROSSING), x=x, y=y, z=z, orientation=o)
        except colony.ColonyError:
            continue
        tried += 1
        ok = lay(t, front, z) and lay(t, back, z)
        if ok:
            now = path_districts(t, z, fresh=True)
            ok = now.get(f_door) == first and now.get(b_door) == second
        if not ok:
            with contextlib.suppress(colony.ColonyError):
                t.c.building_demolish(id=placed["id"])
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
                spots.append((len(front) + len(back), near, x, y, o, fd, front, bd, back))
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
    foods = [g for g in res if g not in ("Water", "Log", "Plank", "Gear", "TreatedPlank")]
    for g in foods:
        wanted[g] = round(eaters * scripted.FOOD_PER_BEAVER_DAY * KEEP_DAYS / len(foods))
    for good, n in wanted.items():
        try:
            t.c.set_distribution(
                district=first["name"], good=good, import_="Auto", export_threshold=n
            )
        except colony.ColonyError as e:
            t.say(f"no distribution for {good}: {e}")
            return


class FirstDistrictSpots:
    """The client, its `placement_find` answers cut to the spots whose doorstep is FIRST_MARGIN
    steps nearer the first center's doorstep than the second's: the scripted player's needs
    place what the first district builds, staffs and lives in."""

    def __init__(self, c: Any, first: dict[str, Any], second: dict[str, Any]) -> None:
        self._c = c
        self._first = (first["entranceX"], first["entranceY"])
        self._second = (second["entranceX"], second["entranceY"])

    def __getattr__(self, name: str) -> Any:
        return getattr(self._c, name)

    def mine(self, spot: dict[str, Any]) -> bool:
        door = (spot.get("entranceX", spot["x"]), spot.get("entranceY", spot["y"]))

        def to(p: tuple[int, int]) -> int:
            return abs(door[0] - p[0]) + abs(door[1] - p[1])

        return to(self._first) + FIRST_MARGIN <= to(self._second)

    def placement_find(self, **kw: Any) -> dict[str, Any]:
        found = self._c.placement_find(**kw)
        found["placements"] = [s for s in found.get("placements", []) if self.mine(s)]
        return found


def two_districts(t: Turn) -> None:
    dc2 = second_center(t)
    if dc2 is not None and "entranceX" in dc2:
        t.c = FirstDistrictSpots(t.c, t.dc, dc2)
    scripted.streets(t)
    scripted.pumps(t)
    scripted.first_tank(t)
    second_district(t)
    scripted.log_pile(t)
    scripted.first_warehouse(t)
    scripted.food(t, more_farms=unemployed(t) >= FARM_WORKERS)
    scripted.wood(t)
    scripted.storage(t)
    scripted.homes(t)
    scripted.tanks(t)


def unemployed(t: Turn) -> int:
    """Adults out of work in every district (the summary's `employment`)."""
    return sum(
        int((d.get("employment") or {}).get("unemployed", 0))
        for d in t.summary.get("districts") or []
    )
