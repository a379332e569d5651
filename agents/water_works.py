"""power-mill and flood-control: a lumber mill on water power, and a floodgate driven by a depth
sensor. Played by ``scenarios.py``, on the scripted reference player (``scripted.py``) and
``industry_kit.py``.

- **power-mill** (a lumber mill on water power, 50 planks in 15 days; the vertical power shaft
  unlocked and gears stored): water wheels in a row on the river's bed (the fewest that give
  60 hp, 135 hp per m3/s of flow each), a vertical power shaft on the step tile beside the first
  with a power shaft on top at the bank's level, and a mill on the home bank touching that shaft;
  work all day, piles, gatherers and lumberjacks from ``industry_kit.py``.
- **flood-control** (a floodgate driven by a depth sensor, the colony alive at day 20): the
  scripted player, and a floodgate on the river's channel near home with a depth sensor beside
  it, linked (On shuts the gate) and set to mode Less at 3/4 of the depth it measured.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import industry_kit  # noqa: E402
import scripted  # noqa: E402
from scripted import Turn  # noqa: E402

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
    return industry_kit.rect(t, {**s, "name": t.name(base)})


def wheel_spots(t: Turn) -> list[dict[str, Any]]:
    """Every water wheel spot on flowing water near the district center (the service answers
    ten spots at most a box: it is asked strip by strip)."""
    box = t.box(t.dc["x"], t.dc["y"], RIVER_REACH)
    found: list[dict[str, Any]] = []
    for y in range(box["y1"], box["y2"] + 1, 2):
        strip = {**box, "y1": y, "y2": min(box["y2"], y + 1)}
        try:
            found += t.c.placement_find(prefab=t.name("WaterWheel"), **strip)["placements"]
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
        for n in industry_kit.neighbours(todo.pop()):
            if n in free and n not in seen:
                seen.add(n)
                todo.append(n)
    return heights, seen


def mill_fits(t: Turn, step: Tile, bank: set[Tile]) -> bool:
    """Whether a lumber mill fits on free bank tiles touching the step tile."""
    sx, sy = industry_kit.size_of(t, t.name("LumberMill"))
    for w, d in ((sx, sy), (sy, sx)):
        for x in range(step[0] - w, step[0] + 2):
            for y in range(step[1] - d, step[1] + 2):
                r = (x, y, w, d)
                if industry_kit.touching(r, (*step, 1, 1)) and cells(r) <= bank:
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
            for p in sorted({n for c in inside for n in industry_kit.neighbours(c)} - inside)
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
            and any(industry_kit.touching(footprint(t, "WaterWheel", s), r) for r in rects)
        ]
        if not beside:
            return None
        best = max(beside, key=flow)
        row.append(best)
        taken |= cells(footprint(t, "WaterWheel", best))
    return row


def put_part(t: Turn, base: str, x: int, y: int, z: int, o: str) -> dict[str, Any] | None:
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
            if not industry_kit.touching(r, (tx, ty, 1, 1)) or industry_kit.overlaps(r, wheel):
                continue
            if (s["entranceX"], s["entranceY"]) == shaft:
                continue
            placed = industry_kit.put(t, base, s, "planks on water power")
            if placed:
                return placed
    return None


def undo(t: Turn, parts: list[dict[str, Any]]) -> None:
    """Takes down sites placed this turn (nothing was delivered to them yet)."""
    for p in parts:
        with contextlib.suppress(colony.ColonyError):
            t.c.building_demolish(id=p["id"])
        t.buildings = [b for b in t.buildings if b["id"] != p["id"]]


def mill_parts(t: Turn) -> list[dict[str, Any]]:
    return t.of("LumberMill") + t.of("WaterWheel") + [b for base in BRIDGE for b in t.of(base)]


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
    t.say(f"found no spot where water wheels, shafts and a mill join ({len(plans)} plans)")


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
        f"({w['x']}, {w['y']}) {w['orientation']} on {flow(w):.2f} m3/s" for w in plan.wheels
    )
    t.say(
        f"water wheels at {wheels} (about {plan.hp():.0f} hp), shafts at {plan.step} "
        f"(levels {z + 1} and {z + 2}), lumber mill at ({mill['x']}, {mill['y']})"
    )
    return True


def power_mill(t: Turn) -> None:
    """The water-powered mill first, then what keeps it going: work all day, a pile for logs,
    a warehouse and gatherers for food, lumberjacks, a pile for the planks."""
    industry_kit.work_all_day(t)
    water_mill(t)
    industry_kit.pile_for(t, "Log", "room for logs: the district center takes no deliveries")
    scripted.first_warehouse(t)
    industry_kit.gatherers(t)
    industry_kit.lumberjacks(t, wanted=2)
    industry_kit.pile_for(t, "Plank", "room for planks")
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
    return {(k["x"], k["y"]): k for k in t.c.tiles(**box)["tiles"] if k.get("water", 0) > 0.05}


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
    placed = put_reached(t, "Floodgate", channel[:GATE_TRIES], water)
    if placed is None:
        t.say("found no spot on the river for a floodgate")
        return
    t.say(f"placed a floodgate on the river at ({placed['x']}, {placed['y']}, {placed['z']})")


def put_reached(
    t: Turn, base: str, tiles: list[Tile], water: dict[Tile, dict[str, Any]]
) -> dict[str, Any] | None:
    """The part on the first of `tiles` (water tiles, on their terrain) where it can be placed
    and builders reach it, first in the builders' queue; None when no tile takes it."""
    for x, y in tiles:
        placed = put_part(t, base, x, y, water[(x, y)]["terrain"], "south")
        if placed is None:
            continue
        if not reach_part(t, placed):
            undo(t, [placed])
            continue
        t.prioritize(placed, workplace=False)
        return placed
    return None


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
        (p for p in industry_kit.neighbours((gate["x"], gate["y"])) if p in water),
        key=lambda p: -water[p]["water"],
    )
    placed = put_reached(t, "DepthSensor", beside, water)
    if placed is None:
        t.say(f"found no water beside the floodgate at ({gate['x']}, {gate['y']}) for a sensor")
        return
    t.say(f"placed a depth sensor beside the floodgate at ({placed['x']}, {placed['y']})")
    link_sensor(t, placed, gate)


def link_sensor(t: Turn, sensor: dict[str, Any], gate: dict[str, Any]) -> None:
    """The sensor drives the gate: On (water below the threshold) shuts it, Off opens it. Set
    once: mode Less, the threshold LOW_WATER_SHARE of the depth on the sensor's tile now."""
    auto = view(t, gate["id"]).get("automation") or {}
    if any(i.get("id") == sensor["id"] for i in auto.get("inputs", [])):
        return
    depth = water_tiles(t).get((sensor["x"], sensor["y"]), {}).get("water", GATE_MIN_DEPTH)
    threshold = round(max(0.2, LOW_WATER_SHARE * depth), 2)
    try:
        t.c.automation_configure(id=sensor["id"], property="mode", value="Less")
        t.c.automation_configure(id=sensor["id"], property="threshold", value=str(threshold))
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
