#!/usr/bin/env python3
"""The industry reference agent: the lab quotas (planks-lab, bread-lab, gears-lab) and it-bots.

It builds on the scripted reference player (``scripted.py``: its ``Turn`` and its needs for
streets, pumps, storage and wood) and adds the industry each lab asks for:

- **planks** (planks-lab): lumber mills, each beside a power wheel (50 hp, walked by a worker;
  a mill asks 50 hp), fed by lumberjacks and a pile for the logs;
- **gears** (gears-lab): a gear workshop (120 hp) beside three power wheels (3 x 50 hp), with the
  stored planks as input;
- **bread** (bread-lab): a bakery set to bake bread from the stored wheat flour (it burns a
  little log per batch);
- **bots** (it-bots, IronTeeth): the scripted player's water, farms with warehouses kept for
  the crop, and on day 1 the chain in one row (part factory, large power wheel, bot assembler,
  wheel, factory) left unbuilt and unstaffed until the farms feed the colony; then its parts,
  the assembler once every part is made, and few enough workers elsewhere that someone hauls
  (docs/evaluation.md, "it-bots").

Which lab it plays it reads from the turn's prompt (the scenario's goal text), else from what is
unlocked. Every lab is a race against the clock from a fixed start with water and food stored, so
it keeps the colony small: gatherers for berries, pumps only where the horizon outlasts the water
stored, no homes, and work all day long (``POST /api/workhours`` with 24: beavers still eat and
drink when they need to; only sleep goes short, which costs walking speed, not lives).

Stateless like ``scripted.py``: every turn it reads the colony and places what is missing.
Run it with ``colony eval --scenario planks-lab --agent 'python3 agents/industry.py'``.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

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
# Buildings placed per turn at most (the scripted agent's 4 is too few for a first turn that lays
# out the whole lab).
scripted.MAX_NEW_SITES = 8


def lab_of(t: Turn, prompt: str) -> str:
    """Which quota this game is about: from the prompt's first line (the scenario and its
    title), else from what is unlocked."""
    text = prompt.strip().splitlines()[0].lower() if prompt.strip() else ""
    words = (
        ("bot", "bots"),
        ("bread", "bread"),
        ("gear", "gears"),
        ("plank", "planks"),
    )
    for word, lab in words:
        if word in text:
            return lab
    if t.name("BotAssembler") in t.costs():
        return "bots"
    if t.name("Bakery") in t.costs():
        return "bread"
    if t.name("GearWorkshop") in t.costs():
        return "gears"
    return "planks"


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
    for o, r in zip(others, rects):
        x, y, w, d = r
        # Strips of origins along each side: a result holds ten spots at most.
        strips = [
            (x - reach, y + d, x + w, y + d),  # north
            (x - reach, y - reach, x + w, y - 1),  # south
            (x + w, y - reach, x + w, y + d),  # east
            (x - reach, y - reach + 1, x - 1, y + d),  # west
        ]
        for x1, y1, x2, y2 in strips:
            box = {
                "x1": max(0, x1),
                "y1": max(0, y1),
                "x2": min(t.map_w - 1, x2),
                "y2": min(t.map_h - 1, y2),
            }
            try:
                found = t.c.placement_find(prefab=prefab, **box)["placements"]
            except colony.ColonyError:
                continue
            for s in found:
                key = (s["x"], s["y"], str(s["orientation"]))
                if key in tried:
                    continue
                tried.add(key)
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
    try:
        placed = t.c.building_place(
            prefab=prefab, x=s["x"], y=s["y"], z=s["z"], orientation=s["orientation"]
        )
    except colony.ColonyError:
        return None
    if not s.get("pathAccess") and not t.connect(s):
        t.c.building_demolish(id=placed["id"])
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
            t.say(
                f"work hours now end at {WORK_END_HOUR}: the quota runs on working hours"
            )
    except colony.ColonyError as e:
        t.say(f"could not set the work hours: {e}")


def gatherers(t: Turn, most: int = 2, urgent: bool = True) -> None:
    """Gatherer flags (free) by the nearest bush clusters: the stored berries last four days
    (`urgent`: first in line for builders and workers)."""
    dc = (t.dc["x"], t.dc["y"])
    clusters = sorted(
        [k for k in t.summary.get("foodClusters") or [] if k["total"] >= 3],
        key=lambda k: abs(k["x"] - dc[0]) + abs(k["y"] - dc[1]),
    )
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
        placed = t.place(
            t.kit.lumberjack, (k["x"], k["y"]), 6, f"{k['grown']} grown trees there"
        )
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


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return (
        a[0] < b[0] + b[2]
        and b[0] < a[0] + a[2]
        and a[1] < b[1] + b[3]
        and b[1] < a[1] + a[3]
    )


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
            found += t.c.placement_find(
                prefab=wheel, x1=box["x1"], y1=yy, x2=box["x2"], y2=yy
            )["placements"]
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


def powered(
    t: Turn, base: str, count: int, why: str, recipe: str | None = None
) -> None:
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
                t.say(
                    f"no power wheel spot beside the {base} at ({b['x']}, {b['y']}) yet"
                )
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
            t.say(
                f"could not join the {base} at ({spot['x']}, {spot['y']}) and its wheels"
            )
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


# --- the labs --------------------------------------------------------------------------------


def planks(t: Turn) -> None:
    """Lumber mills with a power wheel each; lumberjacks; piles for logs and planks."""
    scripted.streets(t)
    work_all_day(t)
    pile_for(t, "Log", "room for logs: the district center takes no deliveries")
    scripted.first_warehouse(t)
    gatherers(t)
    lumberjacks(t, wanted=3)
    powered(t, "LumberMill", 2, "planks: a mill turns a log into a plank in 1.3 h")
    pile_for(t, "Plank", "room for planks")


def gears(t: Turn) -> None:
    """A gear workshop with three power wheels; pumps once the stored water runs low."""
    scripted.streets(t)
    work_all_day(t)
    scripted.first_warehouse(t)
    gatherers(t)
    powered(t, "GearWorkshop", 1, "gears: a plank becomes a gear in 3 h at 120 hp")
    warehouses_for(t, "Gear", 30, "room for gears")
    if t.summary["projections"].get("waterDays", 99) < 5:
        scripted.pumps(t)
        scripted.first_tank(t)


def bread(t: Turn) -> None:
    """A bakery on bread: 1 flour and 0.1 log make 5 bread in 0.42 h."""
    scripted.streets(t)
    work_all_day(t)
    scripted.first_warehouse(t)
    powered(t, "Bakery", 1, "bread: a batch of 5 from one flour", recipe="Bread")
    # The bakery's own room holds 25 bread: without storage it stops after five batches.
    warehouses_for(t, "Bread", 120, "room for bread")


# --- it-bots -----------------------------------------------------------------------------------

BOTS_WANTED = 3
# What one bot takes (recipe Bot.IronTeeth) and each part's cycle at the part factory (work-hours).
PARTS_PER_BOT = {"BotHead": 1, "BotChassis": 1, "BotLimb": 4}
PART_HOURS = {"BotHead": 18.0, "BotChassis": 18.0, "BotLimb": 4.5}
# Two factories: a third would not leave the gears for the parts (150 stored: the assembler 50,
# two factories 50, the parts 45).
FACTORIES = 2


def parts_made(t: Turn) -> dict[str, int]:
    """Bot parts made so far (the hourly history's `produced`, summed)."""
    made = dict.fromkeys(PARTS_PER_BOT, 0)
    try:
        rows = t.c.stats()["rows"]
    except colony.ColonyError:
        return made
    for row in rows:
        for part in made:
            made[part] += int(row.get("produced", {}).get(part, 0))
    return made


def bots_alive(t: Turn) -> int:
    """Bots in every district now."""
    return sum(d["population"]["bots"] for d in t.summary["districts"])


def part_plan(made: dict[str, int], current: list[str | None]) -> list[str | None]:
    """Each factory's part for the next turn. A factory keeps a part still short (switching loses
    the cycle under way and its inputs); the others take a short part nobody makes, heads and
    chassis before limbs. Limbs last is what keeps the gears: a factory overshoots by up to a
    turn's work, and extra limbs made before the heads would eat the heads' gears."""
    short = {p: BOTS_WANTED * n - made[p] for p, n in PARTS_PER_BOT.items()}
    plan: list[str | None] = [None] * len(current)
    for i, part in enumerate(current):
        if part and short.get(part, 0) > 0 and part not in plan:
            plan[i] = part
    for i in range(len(plan)):
        if plan[i] is not None:
            continue
        free = [p for p in PARTS_PER_BOT if short[p] > 0 and p not in plan]
        # Limbs are many short cycles: two factories may share them.
        plan[i] = (free or ["BotLimb" if short["BotLimb"] > 0 else None])[0]
    return plan


def part_of(b: dict[str, Any]) -> str | None:
    """The part a factory's recipe makes (`BotHead.IronTeeth` -> `BotHead`)."""
    recipe = b.get("currentRecipe") or b.get("recipe")
    return recipe.split(".")[0] if recipe else None


def part_recipes(t: Turn, made: dict[str, int]) -> None:
    """Sets each finished part factory's recipe by `part_plan`."""
    factories = [f for f in t.of("BotPartFactory") if f.get("finished")]
    if not factories:
        return
    plan = part_plan(made, [part_of(f) for f in factories])
    for f, part in zip(factories, plan):
        if part and part != part_of(f):
            set_recipe(t, f, t.name(part))
            t.say(
                f"part factory at ({f['x']}, {f['y']}) now makes {part} (made {made})"
            )
        elif part is None and not f.get("paused"):
            t.c.building_pause(id=f["id"], paused=True)
            t.say(f"paused the part factory at ({f['x']}, {f['y']}): every part made")


def workers(t: Turn, b: dict[str, Any], count: int) -> None:
    """Sets a workplace's desired workers when they differ."""
    if int(b.get("desiredWorkers", -1)) == count:
        return
    try:
        t.c.building_workers(id=b["id"], count=count)
        b["desiredWorkers"] = count
    except colony.ColonyError as e:
        t.say(f"could not set the workers of {b['name']}: {e}")


# --- it-bots: the layout -----------------------------------------------------------------------

CHAIN = ("BotAssembler", "BotPartFactory", "LargePowerWheel")
# Assembler spots tried for the whole layout (assembler, its wheels, both factories) in a turn.
# The first 12 near the district center were too few: on some seeds none had room for the
# factories beside the wheels, or the wheels beside it.
CHAIN_TRIES = 40


def assembler_spots(t: Turn) -> list[dict[str, Any]]:
    """Spots for the assembler, nearest the district center first, then farther out (the
    scripted player's search boxes: radius 10, 18 and 30, each around five points)."""
    prefab = t.name("BotAssembler")
    seen: set[tuple[int, int, str]] = set()
    spots: list[dict[str, Any]] = []
    for cx, cy, radius in t.search_boxes((t.dc["x"], t.dc["y"]), 10):
        box = t.box(cx, cy, radius)
        if box["x1"] > box["x2"] or box["y1"] > box["y2"]:
            continue
        try:
            found = t.c.placement_find(prefab=prefab, **box)["placements"]
        except colony.ColonyError:
            continue
        for s in found:
            key = (s["x"], s["y"], str(s["orientation"]))
            if key not in seen and scripted.joinable(s, plaza=3):
                seen.add(key)
                spots.append(s)
    return spots


def undo(t: Turn, placed: list[dict[str, Any]]) -> None:
    """Takes back sites placed this turn and returns their cost to the turn's stock."""
    for p in placed:
        try:
            t.c.building_demolish(id=p["id"])
        except colony.ColonyError:
            continue
        t.buildings = [x for x in t.buildings if x["id"] != p["id"]]
        for g, n in t.costs()[p["name"]].items():
            t.stock[g] = int(t.stock.get(g, 0) + n)
        t.new_sites -= 1


def chain_cost(t: Turn) -> dict[str, float]:
    """What the whole chain costs: the assembler, its wheels and the part factories."""
    need: dict[str, float] = {}
    parts = [("BotAssembler", 1), (wheel_base(t), WHEELS["BotAssembler"])]
    parts.append(("BotPartFactory", FACTORIES))
    for base, n in parts:
        for g, k in t.costs().get(t.name(base), {}).items():
            need[g] = need.get(g, 0) + n * k
    return need


def try_layout(t: Turn, spot: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The assembler on `spot`, its wheels touching it or each other, then the part factories
    touching any of them (factories pass power on), all joined by paths; or nothing placed."""
    wheels = WHEELS["BotAssembler"]
    plan = wheel_spots(t, spot, t.name("BotAssembler"), wheels)
    if plan is None:
        return None
    placed: list[dict[str, Any]] = []
    a = put(t, "BotAssembler", spot, "bots: one from 1 chassis, 1 head and 4 limbs")
    if a is None:
        return None
    placed.append(a)
    for s in plan:
        w = put(t, wheel_base(t), s, "power for the BotAssembler (300 hp)")
        if w is None:
            undo(t, placed)
            return None
        placed.append(w)
    for _ in range(FACTORIES):
        f = place_beside(t, "BotPartFactory", placed, "bot parts: 150 hp")
        if f is None:
            t.say(
                f"no room for a part factory by the assembler at {spot['x']}, {spot['y']}"
            )
            undo(t, placed)
            return None
        placed.append(f)
    return placed


# The chain in one row of 3x3 footprints, every doorstep on one street along it: factory, wheel,
# assembler, wheel, factory, each touching the next (one power network: consumers pass power on).
ROW = (
    "BotPartFactory",
    "LargePowerWheel",
    "BotAssembler",
    "LargePowerWheel",
    "BotPartFactory",
)
# Per orientation: the step from one footprint's origin to the next, and the doorstep's offset
# from a 3x3 footprint's origin (crates/sim/src/colony/geometry.rs `doorstep`).
ROW_STEP = {"south": (3, 0), "north": (3, 0), "west": (0, 3), "east": (0, 3)}
DOORSTEP = {"south": (1, -1), "north": (1, 3), "west": (-1, 1), "east": (3, 1)}
# How far from the district center the row may lie, and the rows tried in a turn.
ROW_REACH = 28
ROW_TRIES = 12


def row_plan(
    x0: int, y0: int, orient: str
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A row's footprint origins and its street tiles (one past each end, so a path can reach
    it from either side)."""
    dx, dy = ROW_STEP[orient]
    ex, ey = DOORSTEP[orient]
    origins = [(x0 + i * dx, y0 + i * dy) for i in range(len(ROW))]
    street = [(x0 + ex + k * (dx // 3), y0 + ey + k * (dy // 3)) for k in range(-2, 15)]
    return origins, street


def land(t: Turn) -> dict[tuple[int, int], dict[str, Any]]:
    """The tiles within ROW_REACH of the district center."""
    box = t.box(t.dc["x"], t.dc["y"], ROW_REACH)
    return {(k["x"], k["y"]): k for k in t.c.tiles(**box)["tiles"]}


def buildable(tile: dict[str, Any] | None, z: int) -> bool:
    """Dry, empty land at the district center's level."""
    return (
        tile is not None
        and tile["terrain"] == z
        and tile.get("water", 0.0) <= 0.05
        and not tile.get("occupants")
    )


def rows(t: Turn) -> list[tuple[int, int, str]]:
    """Rows of the chain that fit on open land, nearest the district center's doorstep first;
    rows over moist soil (the farms' land) count as farther."""
    tiles = land(t)
    z = t.dc["z"]
    door = (t.dc["entranceX"], t.dc["entranceY"])
    found = []
    for (x0, y0), tile in tiles.items():
        if not buildable(tile, z):
            continue
        for orient in ROW_STEP:
            origins, street = row_plan(x0, y0, orient)
            cells = [
                (x + i, y + j) for x, y in origins for i in range(3) for j in range(3)
            ]
            if any(abs(x - door[0]) + abs(y - door[1]) < 4 for x, y in cells + street):
                continue
            if not all(buildable(tiles.get(c), z) for c in cells):
                continue
            inner = street[2:-2]
            if not all(
                tiles.get(c) is not None and scripted.street_tile(tiles[c], z)
                for c in inner
            ):
                continue
            moist = sum(1 for c in cells if tiles[c].get("moist"))
            far = min(abs(x - door[0]) + abs(y - door[1]) for x, y in street)
            found.append((far + moist // 3, x0, y0, orient))
    found.sort()
    return [(x, y, o) for _, x, y, o in found]


def try_row(t: Turn, x0: int, y0: int, orient: str) -> list[dict[str, Any]] | None:
    """The chain's row placed on (x0, y0), its street laid and joined to the district center's
    doorstep; or nothing placed."""
    origins, street = row_plan(x0, y0, orient)
    placed: list[dict[str, Any]] = []
    for base, (x, y) in zip(ROW, origins):
        ex, ey = DOORSTEP[orient]
        spot = {"x": x, "y": y, "z": t.dc["z"], "orientation": orient}
        spot |= {"entranceX": x + ex, "entranceY": y + ey, "pathAccess": True}
        b = put(t, base, spot, "the bot chain's row")
        if b is None:
            undo(t, placed)
            return None
        placed.append(b)
    (x1, y1), (x2, y2) = street[2], street[-3]
    try:
        t.c.path_place(x1=x1, y1=y1, x2=x2, y2=y2, style="straight")
    except colony.ColonyError:
        undo(t, placed)
        return None
    ends = sorted(
        [street[1], street[-2]],
        key=lambda e: scripted.steps(
            {"x": e[0], "y": e[1]}, {"x": t.dc["x"], "y": t.dc["y"]}
        ),
    )
    for end in ends:
        if t.connect({"entranceX": end[0], "entranceY": end[1]}):
            return placed
    t.say(f"could not join the bot chain's row at ({x0}, {y0}) to the district center")
    undo(t, placed)
    return None


def place_chain(t: Turn) -> None:
    """The whole chain at once, once it can be paid: an assembler, two large power wheels and
    two part factories in one power network, in a row where one fits (`rows`), else around
    the assembler spots the service offers. Its sites wait at the end of the builders' queue
    (`chain_queue`) and its workplaces stay empty (`staff_chain`) until the farms feed the
    colony; placed early, it still gets room near the district center before the colony
    fills it (seed 3 walled its paths in by day 3)."""
    if t.of("BotAssembler"):
        return
    short = {g: n for g, n in chain_cost(t).items() if t.stock.get(g, 0) < n}
    if short:
        t.say(f"cannot afford the bot chain yet: short of {short}")
        return
    # The chain's sites wait at the end of the queue: they take none of the turn's sites.
    sites = t.new_sites
    placed = None
    for x0, y0, orient in rows(t)[:ROW_TRIES]:
        placed = try_row(t, x0, y0, orient)
        if placed:
            break
    spots = [] if placed else assembler_spots(t)
    for spot in spots[:CHAIN_TRIES]:
        placed = try_layout(t, spot)
        if placed:
            break
    t.new_sites = sites
    if not placed:
        t.say("found no room for the bot chain")
        return
    for p in placed:
        t.c.building_priority(id=p["id"], priority="VeryHigh", type="workplace")
        workers(t, p, 0)


def part_factories(t: Turn) -> None:
    """A part factory lost since (none is demolished on purpose) is placed again touching the
    chain's network."""
    assemblers = t.of("BotAssembler")
    if not assemblers:
        return
    while t.count("BotPartFactory") < FACTORIES:
        group = [assemblers[0], *network(t, assemblers[0]), *t.of("BotPartFactory")]
        placed = place_beside(t, "BotPartFactory", group, "bot parts: 150 hp")
        if placed is None:
            t.say("no spot for a part factory beside the assembler's network yet")
            return
        t.c.building_priority(id=placed["id"], priority="VeryHigh", type="workplace")


# --- it-bots: when the chain works -------------------------------------------------------------

# The chain is built and staffed once the farms feed the colony: crop tiles per beaver and days of
# food stored (or from this day, whatever the food). Run from day 1 it took the workers and logs
# the farms needed, and four of five dev colonies starved by day 15 with the parts half made.
CHAIN_CROP_TILES_PER_BEAVER = 4
CHAIN_FOOD_DAYS = 3
CHAIN_LATEST_DAY = 14


def fed(t: Turn) -> bool:
    """Whether the farms feed the colony well enough to give the chain builders and workers."""
    if t.summary["time"]["dayNumber"] >= CHAIN_LATEST_DAY:
        return True
    return (
        t.crop_tiles() >= CHAIN_CROP_TILES_PER_BEAVER * t.population
        and t.summary["projections"]["foodDays"] >= CHAIN_FOOD_DAYS
    )


def chain_go(t: Turn, made: dict[str, int]) -> bool:
    """The chain runs once fed, and keeps running once it has made a part."""
    return fed(t) or sum(made.values()) > 0


def chain_queue(t: Turn, go: bool) -> None:
    """The chain's sites last in the builders' queue until it may run, first after."""
    want = "VeryHigh" if go else "VeryLow"
    for base in CHAIN:
        for b in t.of(base):
            if b.get("finished") or b.get("constructionPriority") == want:
                continue
            try:
                t.c.building_priority(id=b["id"], priority=want, type="construction")
            except colony.ColonyError:
                continue


def kit_ready(made: dict[str, int], bots_now: int) -> bool:
    """Whether the parts of the next bot are all made (a chassis, a head and four limbs)."""
    return all(made[p] >= n * (bots_now + 1) for p, n in PARTS_PER_BOT.items())


# The assembler waits for every part of the three bots, or until this day for what is made.
ASSEMBLE_BY_DAY = 28


def assembling(t: Turn, made: dict[str, int]) -> bool:
    """Whether the assembler works this turn: a whole kit waits, and every part is made (or the
    day is late). Bots are hired like beavers and stop for good once out of Energy (no charging
    station: its 20 gears are the parts'). Staffed kit by kit, the assembler let go of its
    workers between kits and each new bot took the place and stalled there with a kit inside
    (seeds 3 and 5: all parts made, two bots); with the parts all made first its workers stay
    for the three bots (36 work-hours each, under a new bot's 41 hours of Energy anyway)."""
    if not kit_ready(made, bots_alive(t)):
        return False
    done = all(made[p] >= BOTS_WANTED * n for p, n in PARTS_PER_BOT.items())
    return done or t.summary["time"]["dayNumber"] >= ASSEMBLE_BY_DAY


def staff_chain(t: Turn, made: dict[str, int], go: bool) -> None:
    """Workers where the chain needs them now, four at most: none before it may run; then the
    factories while parts are short, or the assembler (`assembling`: the factories stop
    meanwhile), and a wheel worker (150 hp) per 150 hp the working consumers ask. With the
    assembler staffed beside the factories the chain held eight of twelve adults, the farms
    none, and 168 ripe crops stood unharvested while the colony starved (seed 2)."""
    assemble = go and assembling(t, made)
    hp = 0
    for a in t.of("BotAssembler"):
        workers(t, a, 2 if assemble else 0)
        hp += 250 if assemble and a.get("finished") else 0
    for f in t.of("BotPartFactory"):
        working = go and not assemble and not f.get("paused")
        workers(t, f, 1 if working else 0)
        hp += 150 if working and f.get("finished") else 0
    needed = -(-hp // 150)
    for w in t.of(wheel_base(t)):
        workers(t, w, min(2, needed))
        needed -= min(2, needed)


# Workplace priorities outside the chain (VeryHigh): the pumps and farms as high. At one priority
# the district hires for water and food first (and takes workers from the chain for them when
# food runs under two days), so the chain gets who is left.
PRIORITY_OF = {"DeepWaterPump": "VeryHigh", "FarmHouse": "VeryHigh"}
# Farms keep one worker each while this many days of food are stored: three farms' six workers
# kept the food at 7-8 days while the chain's wheels went half staffed (seed 4).
FOOD_PLENTY_DAYS = 4
# And all but the first none while this many days are stored (the founders die of old age from
# about day 14, and the food outlasts them).
FOOD_IDLE_DAYS = 12
# One lumberjack works while fewer logs than this are stored, none above.
LOGS_PLENTY = 60


def staff_colony(t: Turn) -> None:
    """Frees workers for the chain and for hauling: the district center's builders one a site
    waiting, one lumberjack only while logs are short, one farmer a farm while food is
    plentiful or its harvest has nowhere to go (the scripted player's `labor`), one farm only
    while it is very plentiful. Nobody hauls when every adult holds a job."""
    sites = sum(1 for b in t.buildings if not b.get("finished") and b["name"] != "Path")
    for dc in t.of("DistrictCenter"):
        workers(t, dc, min(sites, int(dc.get("maxWorkers", 2))))
    for i, lj in enumerate(t.of(t.kit.lumberjack)):
        workers(t, lj, 1 if i == 0 and t.logs() < LOGS_PLENTY else 0)
    days = t.summary["projections"]["foodDays"]
    for i, farm in enumerate(t.of(t.kit.farm)):
        full = any(x.startswith("no storage for") for x in farm.get("statuses", []))
        want = int(farm.get("maxWorkers", 2))
        if days >= FOOD_PLENTY_DAYS or full:
            want = 1
        if days >= FOOD_IDLE_DAYS and i > 0:
            want = 0
        workers(t, farm, want)


def priorities(t: Turn) -> None:
    """Every workplace outside the chain to its `PRIORITY_OF` (else Normal): the scripted player
    makes its own VeryHigh, and at one priority the district staffs water and food first
    whenever they are short, which left the chain without workers for 30 days (seed 1)."""
    chain = {t.name(base) for base in CHAIN}
    for b in t.buildings:
        if b["name"] in chain or "maxWorkers" not in b:
            continue
        want = PRIORITY_OF.get(b["name"].split(".")[0], "Normal")
        if b.get("workplacePriority", "Normal") != want:
            try:
                t.c.building_priority(id=b["id"], priority=want, type="workplace")
            except colony.ColonyError:
                continue


# --- it-bots: the colony -----------------------------------------------------------------------

# Farms from the start, one more while the crops tended stay under the scripted player's
# TILES_PER_BEAVER (a farm's two workers plant and harvest more than its moist land holds).
FIRST_FARMS = 2
MOST_FARMS = 3
# The farms' crop: the warehouses are reserved for it. Haulers empty the district center into
# any store with room, so unreserved warehouses filled with the starting gears and the harvest
# had nowhere to go (seeds 3 and 5: "no storage for Kohlrabi" with 30 in stock).
CROP = "Kohlrabi"
# Room kept free for the next harvests, in units, and the most warehouses for the crop (240
# units, nine days for ten beavers): past that the farms keep one worker ("no storage"), and
# the warehouses placed as the harvests piled up kept the builders, and the workers they hold,
# busy for nothing.
HARVEST_ROOM = 60
MOST_CROP_WAREHOUSES = 8


def bots_food(t: Turn) -> None:
    """Farms and their crops: no gatherer flags (a bush gives 3 berries in 12 days: the flags
    brought 12-144 berries a game and held a worker the farms or the haulers needed)."""
    farms = t.of(t.kit.farm)
    wanted = max(FIRST_FARMS, math.ceil(t.population / scripted.BEAVERS_PER_FARM))
    if (
        farms
        and all(f.get("finished") for f in farms)
        and t.crop_tiles() < scripted.TILES_PER_BEAVER * t.population
    ):
        wanted = max(wanted, len(farms) + 1)
    if len(farms) < min(wanted, MOST_FARMS):
        f = t.place(
            t.kit.farm,
            (t.dc["x"], t.dc["y"]),
            scripted.REACH,
            f"{t.population} beavers to feed, {t.crop_tiles()} crop tiles",
        )
        if f:
            t.prioritize(f)
    scripted.clear_dead_crops(t)
    for farm in t.of(t.kit.farm):
        scripted.plant_around(t, farm)


def food_storage(t: Turn) -> None:
    """Warehouses reserved for the crop, room for what is stored and the next harvests, and a
    pile for logs once they fill the piles."""
    dc = (t.dc["x"], t.dc["y"])
    if t.logs() > 150 * t.count(t.kit.log_pile):
        pile = t.place(t.kit.log_pile, dc, scripted.REACH // 2, "room for logs")
        if pile:
            scripted.keep_logs(t, pile["id"])
    for w in t.of(t.kit.warehouse):
        if w.get("allowedGood") != CROP:
            reserve(t, w, CROP)
    stored = int(t.stock.get(CROP, 0))
    while (
        30 * t.count(t.kit.warehouse) < stored + HARVEST_ROOM
        and t.count(t.kit.warehouse) < MOST_CROP_WAREHOUSES
    ):
        w = t.place(t.kit.warehouse, dc, scripted.REACH // 2, f"room for {CROP}")
        if w is None:
            return
        t.prioritize(w, workplace=False)
        reserve(t, w, CROP)


def reserve(t: Turn, store: dict[str, Any], good: str) -> None:
    """A storage building kept for one good."""
    try:
        t.c.building_storage(id=store["id"], good=good)
        store["allowedGood"] = good
    except colony.ColonyError as e:
        t.say(f"could not reserve the store at ({store['x']}, {store['y']}): {e}")


def bots_wood(t: Turn) -> None:
    """One lumberjack, two while logs are short: the chain's wheels, the farms, tanks and homes
    need about the 340 logs there are at the start."""
    lumberjacks(t, wanted=1 if t.logs() >= 100 else 2)


# The scripted player's water and the colony's food and wood, in the scripted player's order.
# Left out: its science (its IronTeeth list buys the MediumTank for 20 gears the parts need) and
# its breeding pods (a pod eats a berry a day and each kit eats as an adult: the founders live
# past day 40, and the pods starved seed 4 once the farmers went to the chain).
SURVIVAL = (
    scripted.first_pump,
    scripted.streets,
    place_chain,
    scripted.pumps,
    scripted.first_tank,
    scripted.log_pile,
    food_storage,
    bots_food,
    bots_wood,
)
LATER = (scripted.homes, scripted.tanks)


def bots(t: Turn) -> None:
    """The scripted player's water, food and wood, the chain placed as soon as it can be paid,
    then storage, homes and tanks; each turn the chain's queue, recipes and workers."""
    for need in SURVIVAL:
        need(t)
    t.new_sites = 0
    part_factories(t)
    t.new_sites = 0
    for need in LATER:
        need(t)
    priorities(t)
    staff_colony(t)
    made = parts_made(t)
    go = chain_go(t, made)
    if not go:
        t.say("the bot chain waits: the farms do not feed the colony yet")
    chain_queue(t, go)
    if go:
        work_all_day(t)
    part_recipes(t, made)
    staff_chain(t, made, go)


def play(c: colony.Colony, prompt: str) -> None:
    t = Turn(c)
    if t.summary.get("gameOver"):
        return
    lab = lab_of(t, prompt)
    made = {
        k: v.get("producedLastDay")
        for k, v in (t.summary.get("flows") or {}).items()
        if k in ("Plank", "Gear", "Bread", "Log", "BotChassis", "BotHead", "BotLimb")
    }
    t.say(
        f"{lab} lab: {t.population} beavers, {t.logs()} logs, stock {t.stock}, "
        f"made last day {made}"
    )
    {"planks": planks, "gears": gears, "bread": bread, "bots": bots}[lab](t)


def main() -> None:
    prompt = "" if sys.stdin.isatty() else sys.stdin.read()
    prompt = prompt or os.environ.get("COLONY_PROMPT", "")
    host = os.environ.get("COLONY_HOST", "127.0.0.1")
    port = int(os.environ.get("COLONY_PORT", "8085"))
    with colony.Colony(host=host, port=port) as c:
        play(c, prompt)


if __name__ == "__main__":
    main()
