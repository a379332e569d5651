"""What the industry and scenario agents share beyond ``scripted.py``: footprints and tile
geometry, placing a building beside others (or on a spot the service offered), power wheels for a
consumer, work all day, gatherers, lumberjacks and storage reserved for one good.

A library: ``industry.py`` (the labs), ``bots.py`` (it-bots), ``water_works.py`` (power-mill) and
``districts.py`` (two-districts) build on it; it plays nothing itself.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scripted  # noqa: E402
from scripted import Turn  # noqa: E402

# Work never stops (the API's 1-24; 24: no off hours). Manufactories, power wheels and lumberjacks
# all work only in working hours, so this is the quota's largest lever.
WORK_END_HOUR = 24
# Power wheels per consumer: a Folktails wheel gives 50 hp with its worker inside, an IronTeeth
# large wheel 300 hp with both its workers (data/buildings.json). The bot assembler's two feed it
# (250 hp) and the two part factories touching their network (2 x 150 hp).
WHEELS = {"LumberMill": 1, "GearWorkshop": 3, "BotAssembler": 2}
# The walker-powered wheel each faction has from the start.
WHEEL_OF = {"Folktails": "PowerWheel", "IronTeeth": "LargePowerWheel"}


# --- geometry ----------------------------------------------------------------------------------


def size_of(t: Turn, prefab: str) -> tuple[int, int]:
    if not hasattr(t, "_sizes"):
        t._sizes = {p["name"]: (p["sizeX"], p["sizeY"]) for p in t.c.prefabs()}
    return t._sizes[prefab]


def rect(t: Turn, b: dict[str, Any]) -> tuple[int, int, int, int]:
    """A building's footprint (x, y, w, d): east and west turn the catalogue's size."""
    sx, sy = size_of(t, b["name"])
    o = str(b.get("orientation", "south")).lower()
    if o in ("east", "west", "1", "3"):
        sx, sy = sy, sx
    return b["x"], b["y"], sx, sy


def touching(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Two footprints side to side (power links: 4-adjacent voxels)."""
    ax, ay, aw, ad = a
    bx, by, bw, bd = b
    x_overlap = ax < bx + bw and bx < ax + aw
    y_overlap = ay < by + bd and by < ay + ad
    return (x_overlap and (ay + ad == by or by + bd == ay)) or (
        y_overlap and (ax + aw == bx or bx + bw == ax)
    )


def covers(r: tuple[int, int, int, int], x: int, y: int) -> bool:
    return r[0] <= x < r[0] + r[2] and r[1] <= y < r[1] + r[3]


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def neighbours(p: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = p
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def wheel_base(t: Turn) -> str:
    """The faction's walker-powered wheel (a base name)."""
    return WHEEL_OF[t.faction]


def network(t: Turn, consumer: dict[str, Any]) -> list[dict[str, Any]]:
    """The power wheels linked to a consumer, directly or through other wheels."""
    wheels = [b for b in t.buildings if b["name"] == t.name(wheel_base(t))]
    group = [rect(t, consumer)]
    linked: list[dict[str, Any]] = []
    grew = True
    while grew:
        grew = False
        for w in wheels:
            if w in linked or w["z"] != consumer["z"]:
                continue
            if any(touching(rect(t, w), g) for g in group):
                linked.append(w)
                group.append(rect(t, w))
                grew = True
    return linked


# --- placing beside a building -----------------------------------------------------------------


def place_beside(
    t: Turn, base: str, others: list[dict[str, Any]], why: str
) -> dict[str, Any] | None:
    """Places `base` touching one of `others` (same level), joined to the district's paths,
    leaving their doorsteps free."""
    prefab = t.name(base)
    if not t.affordable(base, keep=t.reserved) or t.new_sites >= scripted.MAX_NEW_SITES:
        return None
    rects = [rect(t, o) for o in others]
    doors = [(o.get("entranceX"), o.get("entranceY")) for o in others]
    sx, sy = size_of(t, prefab)
    reach = max(sx, sy)
    tried: set[tuple[int, int, str]] = set()
    for o, r in zip(others, rects, strict=True):
        x, y, w, d = r
        # Strips of origins along each side: a result holds ten spots at most.
        strips = [
            (x - reach, y + d, x + w, y + d),  # north
            (x - reach, y - reach, x + w, y - 1),  # south
            (x + w, y - reach, x + w, y + d),  # east
            (x - reach, y - reach + 1, x - 1, y + d),  # west
        ]
        for s in t.spots_in(prefab, (t.clamped(*strip) for strip in strips), tried):
            sr = rect(t, {**s, "name": prefab})
            if s["z"] != o["z"] or not any(touching(sr, q) for q in rects):
                continue
            if any(covers(sr, dx, dy) for dx, dy in doors if dx is not None):
                continue
            if not scripted.joinable(s, plaza=2):
                continue
            placed = put(t, base, s, why)
            if placed:
                return placed
    return None


def put(t: Turn, base: str, s: dict[str, Any], why: str) -> dict[str, Any] | None:
    """Places a prefab on a spot the service offered and joins it by a path (as Turn.place)."""
    prefab = t.name(base)
    placed = t.put_on(prefab, s)
    if placed is None:
        return None
    for good, n in t.costs()[prefab].items():
        t.stock[good] = int(t.stock.get(good, 0) - n)
    t.new_sites += 1
    b = {
        "id": placed["id"],
        "name": prefab,
        "x": s["x"],
        "y": s["y"],
        "z": s["z"],
        "orientation": s["orientation"],
        "finished": False,
        "entranceX": s["entranceX"],
        "entranceY": s["entranceY"],
    }
    t.buildings.append(b)
    t.say(f"placed {base} at ({s['x']}, {s['y']}) {s['orientation']}: {why}")
    return b


# --- the labs' needs ---------------------------------------------------------------------------


def work_all_day(t: Turn) -> None:
    try:
        if t.c.workhours().get("endHours") != WORK_END_HOUR:
            t.c.set_workhours(end_hours=WORK_END_HOUR)
            t.say(f"work hours now end at {WORK_END_HOUR}: the quota runs on working hours")
    except colony.ColonyError as e:
        t.say(f"could not set the work hours: {e}")


def gatherers(t: Turn, most: int = 2, urgent: bool = True, bushes: int = 0) -> None:
    """Gatherer flags (free) by the nearest bush clusters: the stored berries last four days
    (`urgent`: first in line for builders and workers). With `bushes`, flags go on past the
    first two (up to `most`) until their clusters hold that many bushes."""
    dc = (t.dc["x"], t.dc["y"])
    clusters = sorted(
        [k for k in t.summary.get("foodClusters") or [] if k["total"] >= 3],
        key=lambda k: abs(k["x"] - dc[0]) + abs(k["y"] - dc[1]),
    )
    if bushes:
        enough = 2
        while enough < min(most, len(clusters)) and (
            sum(k["total"] for k in clusters[:enough]) < bushes
        ):
            enough += 1
        most = enough
    for k in clusters[t.count(t.kit.gatherer) : most]:
        g = t.place(t.kit.gatherer, (k["x"], k["y"]), 6, f"{k['total']} bushes there")
        if g and urgent:
            t.prioritize(g)


def lumberjacks(t: Turn, wanted: int) -> None:
    """Lumberjack flags by the nearest forests, every grown tree around them marked."""
    dc = (t.dc["x"], t.dc["y"])
    flags = t.of(t.kit.lumberjack)
    if t.summary["trees"]["markedGrown"] < 15:
        for lj in flags:
            t.c.cutting_area(**t.box(lj["x"], lj["y"], 16), z=lj["z"], marked=True)
    clusters = sorted(
        [
            k
            for k in t.summary.get("treeClusters") or []
            if k["grown"] >= 8 and all(scripted.steps(k, f) > 10 for f in flags)
        ],
        key=lambda k: abs(k["x"] - dc[0]) + abs(k["y"] - dc[1]),
    )
    for k in clusters[: max(0, wanted - len(flags))]:
        placed = t.place(t.kit.lumberjack, (k["x"], k["y"]), 6, f"{k['grown']} grown trees there")
        if placed:
            t.prioritize(placed)
            t.c.cutting_area(**t.box(k["x"], k["y"], 12), z=k["z"], marked=True)


def pile_for(t: Turn, good: str, why: str) -> None:
    """A large pile reserved for one good (a pile holds one good at a time)."""
    piles = t.of(t.kit.log_pile)
    if any(p.get("storage", {}).get("good") == good for p in piles if p.get("storage")):
        return
    have = [p for p in piles if pile_good(p) == good]
    if have:
        return
    placed = t.place(t.kit.log_pile, (t.dc["x"], t.dc["y"]), 12, why)
    if placed:
        t.prioritize(placed, workplace=False)
        try:
            t.c.building_storage(id=placed["id"], good=good)
        except colony.ColonyError as e:
            t.say(f"could not reserve the pile for {good}: {e}")


def warehouses_for(t: Turn, good: str, units: int, why: str) -> None:
    """Small warehouses reserved for a good (30 units each) until `units` fit."""
    have = [w for w in t.of(t.kit.warehouse) if pile_good(w) == good]
    while 30 * len(have) < units:
        placed = t.place(t.kit.warehouse, (t.dc["x"], t.dc["y"]), 12, why)
        if placed is None:
            return
        t.prioritize(placed, workplace=False)
        try:
            t.c.building_storage(id=placed["id"], good=good)
        except colony.ColonyError as e:
            t.say(f"could not reserve the warehouse for {good}: {e}")
            return
        placed["allowedGood"] = good
        have.append(placed)


def pile_good(b: dict[str, Any]) -> str | None:
    """The good a storage building is reserved for, as the full building view tells it."""
    for key in ("storage", "stockpile"):
        v = b.get(key)
        if isinstance(v, dict):
            for k in ("good", "allowedGood", "reserved"):
                if v.get(k):
                    return v[k]
    return b.get("allowedGood") or b.get("storedGood")


# --- power -------------------------------------------------------------------------------------


def wheel_spots(
    t: Turn, spot: dict[str, Any], prefab: str, count: int
) -> list[dict[str, Any]] | None:
    """`count` power wheel spots that link to a consumer planned on `spot` (touching it or a
    wheel already chosen), none on its footprint or doorstep, or `None`."""
    wheel = t.name(wheel_base(t))
    rects = [rect(t, {**spot, "name": prefab})]
    doors = [(spot["entranceX"], spot["entranceY"])]
    x, y, w, d = rects[0]
    r = 3
    box = {
        "x1": max(0, x - r - 1),
        "y1": max(0, y - r - 1),
        "x2": min(t.map_w - 1, x + w + r),
        "y2": min(t.map_h - 1, y + d + r),
    }
    # A result holds ten spots at most: ask strip by strip.
    found: list[dict[str, Any]] = []
    for yy in range(box["y1"], box["y2"] + 1):
        try:
            found += t.c.placement_find(prefab=wheel, x1=box["x1"], y1=yy, x2=box["x2"], y2=yy)[
                "placements"
            ]
        except colony.ColonyError:
            continue
    chosen: list[dict[str, Any]] = []
    while len(chosen) < count:
        pick = None
        for s in found:
            sr = rect(t, {**s, "name": wheel})
            if s["z"] != spot["z"] or not scripted.joinable(s, plaza=2):
                continue
            if any(overlaps(sr, q) for q in rects):
                continue
            if any(covers(sr, dx, dy) for dx, dy in doors):
                continue
            if any(covers(q, s["entranceX"], s["entranceY"]) for q in rects):
                continue
            if not any(touching(sr, q) for q in rects):
                continue
            pick = s
            break
        if pick is None:
            return None
        chosen.append(pick)
        rects.append(rect(t, {**pick, "name": wheel}))
        doors.append((pick["entranceX"], pick["entranceY"]))
    return chosen


def powered(t: Turn, base: str, count: int, why: str, recipe: str | None = None) -> None:
    """`count` consumers of a kind, each with its power wheels beside it, all first in line
    for builders and workers."""
    dc = (t.dc["x"], t.dc["y"])
    wheels = WHEELS.get(base, 0)
    prefab = t.name(base)
    for b in t.of(base):
        linked = network(t, b)
        while len(linked) < wheels:
            w = place_beside(t, wheel_base(t), [b, *linked], f"power for the {base}")
            if w is None:
                t.say(f"no power wheel spot beside the {base} at ({b['x']}, {b['y']}) yet")
                break
            t.prioritize(w)
            linked.append(w)
        if recipe and b.get("recipe") != recipe:
            set_recipe(t, b, recipe)
    if t.count(base) >= count or prefab not in t.costs():
        return
    need: dict[str, float] = dict(t.costs()[prefab])
    wheel_cost = t.costs().get(t.name(wheel_base(t)), {})
    for g, n in wheel_cost.items():
        need[g] = need.get(g, 0) + wheels * n
    short = {g: n for g, n in need.items() if t.stock.get(g, 0) < n}
    if short:
        t.say(f"cannot afford another {base} with its power yet: short of {short}")
        return
    candidates: list[dict[str, Any]] = []
    for cx, cy, radius in t.search_boxes(dc, 10):
        box = t.box(cx, cy, radius)
        try:
            found = t.c.placement_find(prefab=prefab, **box)["placements"]
        except colony.ColonyError:
            continue
        candidates += [s for s in found if scripted.joinable(s, plaza=3)]
        if len(candidates) >= 12:
            break
    for spot in candidates[:12]:
        plan = wheel_spots(t, spot, prefab, wheels) if wheels else []
        if plan is None:
            continue
        b = put(t, base, spot, why)
        if b is None:
            continue
        placed = [b]
        for s in plan:
            w = put(t, wheel_base(t), s, f"power for the {base}")
            if w is None:
                break
            placed.append(w)
        if len(placed) < 1 + wheels:
            t.say(f"could not join the {base} at ({spot['x']}, {spot['y']}) and its wheels")
            for p in placed:
                t.c.building_demolish(id=p["id"])
                t.buildings = [x for x in t.buildings if x["id"] != p["id"]]
                for g, n in t.costs()[p["name"]].items():
                    t.stock[g] = int(t.stock.get(g, 0) + n)
            continue
        for p in placed:
            t.prioritize(p)
        if recipe:
            set_recipe(t, b, recipe)
        return
    t.say(f"found no spot for a {base} with {wheels} power wheels beside it")


def set_recipe(t: Turn, b: dict[str, Any], recipe: str) -> None:
    try:
        t.c.building_recipe(id=b["id"], recipe=recipe)
    except colony.ColonyError as e:
        t.say(f"could not set the recipe of {b['name']} to {recipe}: {e}")
