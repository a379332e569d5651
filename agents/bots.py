"""it-bots (IronTeeth: three bots within 40 days), played by ``industry.py`` when the prompt's
first line names bots (docs/evaluation.md, "it-bots").

On the scripted reference player (``scripted.py``) and ``industry_kit.py``: the scripted player's
water, farms with warehouses kept for the crop, and on day 1 the chain in one row (part factory,
large power wheel, bot assembler, wheel, factory) left unbuilt and unstaffed until the farms feed
the colony; then its parts, the assembler once every part is made, and few enough workers
elsewhere that someone hauls. The chain injures its workers: an inventor buys the Medical Bed and
two beds heal them in days, not ten. The gears are counted: a factory goes for its refund when
the limbs left need more than remain, and once every part is made both go and their gears pay
for a charging station, so the new bots (hired like beavers) keep working at the assembler.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scripted  # noqa: E402
from industry_kit import (  # noqa: E402
    WHEELS,
    lumberjacks,
    network,
    pile_good,
    place_beside,
    put,
    rect,
    set_recipe,
    touching,
    warehouses_for,
    wheel_base,
    wheel_spots,
    work_all_day,
)
from scripted import Turn  # noqa: E402
from scripted_land import plant_around  # noqa: E402

# --- the parts ---------------------------------------------------------------------------------

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
    for f, part in zip(factories, plan, strict=True):
        if part and part != part_of(f):
            set_recipe(t, f, t.name(part))
            t.say(f"part factory at ({f['x']}, {f['y']}) now makes {part} (made {made})")
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


# --- the layout --------------------------------------------------------------------------------

CHAIN = ("BotAssembler", "BotPartFactory", "LargePowerWheel")
# Assembler spots tried for the whole layout (assembler, its wheels, both factories) in a turn.
# The first 12 near the district center were too few: on some seeds none had room for the
# factories beside the wheels, or the wheels beside it.
CHAIN_TRIES = 40


def assembler_spots(t: Turn) -> list[dict[str, Any]]:
    """Spots for the assembler, nearest the district center first, then farther out (the
    scripted player's search boxes: radius 10, 18 and 30, each around five points)."""
    prefab = t.name("BotAssembler")
    boxes = (t.box(cx, cy, r) for cx, cy, r in t.search_boxes((t.dc["x"], t.dc["y"]), 10))
    boxes = (b for b in boxes if b["x1"] <= b["x2"] and b["y1"] <= b["y2"])
    return [s for s in t.spots_in(prefab, boxes, set()) if scripted.joinable(s, plaza=3)]


# Ground steps from the district center's doorstep the fallback layout's assembler keeps first.
CHAIN_PLAZA = 10


def steps_from_center(spot: dict[str, Any]) -> int:
    """A spot's ground steps from the district center's doorstep, as the service counts them."""
    if spot.get("reachable"):
        return int(spot.get("distance", 0))
    return int(spot.get("groundSteps", -1))


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
            t.say(f"no room for a part factory by the assembler at {spot['x']}, {spot['y']}")
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


def row_plan(x0: int, y0: int, orient: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
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
            cells = [(x + i, y + j) for x, y in origins for i in range(3) for j in range(3)]
            if any(abs(x - door[0]) + abs(y - door[1]) < 4 for x, y in cells + street):
                continue
            if not all(buildable(tiles.get(c), z) for c in cells):
                continue
            inner = street[2:-2]
            if not all(
                tiles.get(c) is not None and scripted.street_tile(tiles[c], z) for c in inner
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
    for base, (x, y) in zip(ROW, origins, strict=True):
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
        key=lambda e: scripted.steps({"x": e[0], "y": e[1]}, {"x": t.dc["x"], "y": t.dc["y"]}),
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
    # Spots a walk from the district center first: the chain beside it walled in its streets
    # (seed 3: the assembler 4 tiles from the doorstep, no spot a path joined for a second farm,
    # a barrack or a warehouse from day 2 on; the colony starved from day 11).
    spots.sort(key=lambda s: steps_from_center(s) < CHAIN_PLAZA)
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
    """A part factory lost since is placed again touching the chain's network, unless the heads
    and chassis are all made (`spare_gears` demolishes one then, and one makes the limbs)."""
    assemblers = t.of("BotAssembler")
    if not assemblers or only_limbs_left(parts_made(t)):
        return
    while t.count("BotPartFactory") < FACTORIES:
        group = [assemblers[0], *network(t, assemblers[0]), *t.of("BotPartFactory")]
        placed = place_beside(t, "BotPartFactory", group, "bot parts: 150 hp")
        if placed is None:
            t.say("no spot for a part factory beside the assembler's network yet")
            return
        t.c.building_priority(id=placed["id"], priority="VeryHigh", type="workplace")


def only_limbs_left(made: dict[str, int]) -> bool:
    """Whether every head and chassis of the three bots is made."""
    return all(made[p] >= BOTS_WANTED * PARTS_PER_BOT[p] for p in ("BotHead", "BotChassis"))


def spare_gears(t: Turn, made: dict[str, int]) -> None:
    """One part factory demolished once the limbs still to make need more gears than are left
    (in stock and held by the factories): its refund (75% of its 25 gears) and the gears it
    holds go to the district center, and the other factory makes the last limbs. The gears
    leave 5 to spare (150: the assembler 50, the factories 50, the parts 45), and a head made
    past the third or a cycle cut short by a recipe change (its inputs are taken when it
    starts) spends them: seed 2 made 11 limbs, its second factory holding 2 gears, and the
    assembler made two bots."""
    factories = [f for f in t.of("BotPartFactory") if f.get("finished")]
    if len(factories) < 2 or not only_limbs_left(made):
        return
    need = 3 * (BOTS_WANTED * PARTS_PER_BOT["BotLimb"] - made["BotLimb"])
    held = sum(int((f.get("inventory") or {}).get("Gear", 0)) for f in factories)
    have = int(t.stock.get("Gear", 0)) + held
    if need <= 0 or have >= need:
        return
    # A factory goes whose partner still touches the assembler or a wheel (power passes through
    # consumers: in the row both do); of those, the one holding the fewest gears (what it holds
    # comes back either way).
    hubs = [rect(t, b) for b in t.of("BotAssembler") + t.of(wheel_base(t))]
    ok = [
        f
        for f in factories
        if all(any(touching(rect(t, o), h) for h in hubs) for o in factories if o is not f)
    ]
    if not ok:
        return
    f = min(ok, key=lambda b: int((b.get("inventory") or {}).get("Gear", 0)))
    if not take_down_factory(t, f):
        return
    t.say(
        f"demolished the part factory at ({f['x']}, {f['y']}) for its gears: {need} wanted"
        f" for the limbs, {have} left"
    )


def room_for_gears(t: Turn) -> bool:
    """Whether a finished warehouse kept for gears stands (one is placed when none does): a
    demolished factory's refund and stock go only to stores with room, and the district center,
    full with the starting goods, takes none; what finds no room is lost (rules revision 3: on
    every test seed but one the refund was lost and the third bot never made)."""
    warehouses_for(t, "Gear", 30, "room for a demolished part factory's gears")
    return any(w.get("finished") and pile_good(w) == "Gear" for w in t.of(t.kit.warehouse))


def take_down_factory(t: Turn, f: dict[str, Any]) -> bool:
    """Demolishes a part factory, once its gears have a store to go to, and drops it from the
    turn's buildings; False (said) when the service refuses or no store has room yet."""
    if not room_for_gears(t):
        return False
    try:
        t.c.building_demolish(id=f["id"])
    except colony.ColonyError as e:
        t.say(f"could not demolish the part factory at ({f['x']}, {f['y']}): {e}")
        return False
    t.buildings = [b for b in t.buildings if b["id"] != f["id"]]
    return True


# What a finished building gives back when demolished (Normal mode: data/world.json `refundRate`).
REFUND_RATE = 0.75


def all_parts_made(made: dict[str, int]) -> bool:
    """Whether every part of the three bots is made."""
    return all(made[p] >= BOTS_WANTED * n for p, n in PARTS_PER_BOT.items())


def charging_station(t: Turn, made: dict[str, int]) -> None:
    """Once every part is made, the part factories go (their refund and the gears they hold
    pay for the station's 20) and a charging station touches the assembler's network. A new
    bot is hired like a beaver and stops for good once its Energy runs out (about 41 hours),
    keeping its job: seed 13 made two bots, both then took the assembler's places and stopped
    with the third bot at 35.8 of its 36 work-hours."""
    assemblers = t.of("BotAssembler")
    if not assemblers or not all_parts_made(made):
        return
    for f in t.of("BotPartFactory"):
        if not take_down_factory(t, f):
            continue
        back = dict((f.get("inventory") or {}).items())
        if f.get("finished"):
            for g, n in t.costs()[f["name"]].items():
                back[g] = back.get(g, 0) + math.floor(n * REFUND_RATE)
        for g, n in back.items():
            t.stock[g] = int(t.stock.get(g, 0) + n)
        t.say(f"demolished the part factory at ({f['x']}, {f['y']}): every part made")
    if t.count("ChargingStation"):
        return
    a = assemblers[0]
    station = place_beside(t, "ChargingStation", [a, *network(t, a)], "bots recharge there")
    if station is not None:
        t.prioritize(station, workplace=False)


# --- when the chain works ----------------------------------------------------------------------

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
    for st in t.of("ChargingStation"):
        hp += 100 if st.get("finished") else 0
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
        full = scripted.store_full(farm)
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


# --- the colony --------------------------------------------------------------------------------

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
        plant_around(t, farm)


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


# --- injuries -----------------------------------------------------------------------------------

# The part factory and the assembler injure their workers (1.5% an hour worked, data/colony.json
# `ailments.injuries`): an injured beaver neither works nor hauls until its Injury need heals,
# 0.1 a day from -1, so ten days. A Medical Bed (80 science, 5 logs and a plank) heals 0.36 a day
# more: about two days. Seed 5: four of the five chain workers hurt on days 13-14, the wheels
# stood unstaffed from day 17 to 24 and the limbs waited; 2 bots.
MEDICAL_BEDS = 2
INVENTOR_WORKERS = 1


def science_points(t: Turn) -> int:
    """Science points to spend now."""
    return int(t.summary.get("science", 0) or 0)


def medical_beds(t: Turn) -> None:
    """An inventor from the first days (the chain waits for the farms then, and a worker is
    spare) until the Medical Bed is bought, then the beds beside the district center."""
    bed = t.name("MedicalBed")
    if bed not in t.costs():
        if t.count(t.kit.inventor) == 0:
            t.place(t.kit.inventor, (t.dc["x"], t.dc["y"]), scripted.REACH // 2, "science: beds")
        cost = 80
        try:
            rows = t.c.science()["unlockables"]
            cost = next((int(u["cost"]) for u in rows if u["name"] == bed), cost)
        except colony.ColonyError:
            return
        if science_points(t) < cost:
            return
        try:
            t.c.science_unlock(building=bed)
        except colony.ColonyError as e:
            t.say(f"could not unlock the MedicalBed: {e}")
            return
        t._costs = None
        t.say("unlocked the MedicalBed: the chain's injured heal in two days, not ten")
    # The inventor's worker goes back to the colony once the beds are bought.
    for inv in t.of(t.kit.inventor):
        workers(t, inv, 0 if bed in t.costs() else INVENTOR_WORKERS)
    dc = (t.dc["x"], t.dc["y"])
    while bed in t.costs() and t.count("MedicalBed") < MEDICAL_BEDS:
        if t.place("MedicalBed", dc, scripted.REACH // 2, "the injured rest there") is None:
            return


# The scripted player's water and the colony's food and wood, in the scripted player's order.
# Left out: its science list (its IronTeeth list buys the MediumTank for 20 gears the parts need;
# `medical_beds` buys the Medical Bed alone) and its breeding pods (a pod eats a berry a day and
# each kit eats as an adult: the founders live past day 40, and the pods starved seed 4 once the
# farmers went to the chain).
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
    medical_beds,
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
    spare_gears(t, made)
    charging_station(t, made)
    part_recipes(t, made)
    staff_chain(t, made, go)
