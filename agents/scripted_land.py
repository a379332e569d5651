"""The scripted reference agent's land: the farms' crops, the lumberjacks, the forester and the
science that buys it (`agents/scripted.py` plays the turn; this module holds the needs that work
the land, split from it along that seam).

Two things every rule here rests on (data/nature.json, crates/sim/src/land/plants.rs): crops and
trees grow only on moist soil, the few tiles near water, so the farms and the forester share it;
and a lumberjack flag reaches 20 steps, so flags go by the trees and a forester gets its own.
Stateless like the rest of the agent: each function reads the turn (`scripted.Turn`) and acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import colony

if TYPE_CHECKING:
    from scripted import Turn

# How far (tiles) from the district center the agent builds: the haulers' walk stays short.
REACH = 24
# The farms mark crops up to this many tiles a beaver (growing, ripe and marked together; at
# least CROP_TILES_MIN): they used to mark every moist tile in reach (seed 7: 162 carrots for 12
# beavers on day 6, food for 18 days), and the Forester then found no moist tile to plant, the
# only soil trees grow on, while the logs stayed at 1.
CROP_TILES_PER_BEAVER = 9
CROP_TILES_MIN = 60
# ... while the food stored lasts FOOD_RICH_DAYS beyond the next hazard; short of that, this many.
FOOD_RICH_DAYS = 4
CROP_TILES_HUNGRY = 25
# Trees are looked for this far (tiles) from the district center, in stands of STAND_CELL x
# STAND_CELL tiles: `GET /api/tree_clusters` gives the five densest stands of the whole map, which
# on a thin map lie 90-120 steps away (Hard seed 5), and every flag sent to them stood idle.
TREE_SEARCH = REACH + 12
STAND_CELL = 8
# With fewer grown trees than this around home, flags go to the map's dense stands up to
# FAR_FOREST_STEPS away too (the haulers' walk is long, but logs are what everything costs).
FAR_FORESTS_BELOW = 30
# A lumberjack flag goes within this many tiles of its stand, and no farther (its reach is 20
# steps; the widening search put flags 30-40 tiles off, idle from the start).
FLAG_SEARCH = 12
# The farthest a dense stand may lie for a flag (steps from the district center).
FAR_FOREST_STEPS = 80
# Temperate seasons this short (Hard's 5-8 days) call for the Forester from the start.
HARSH_TEMPERATE_DAYS = 9
# What a Forester costs in logs (data/buildings.json; it also takes 7 of the starting planks).
FORESTER_LOGS = 10
# On harsh seasons a flag with no marked tree in reach gets the trees this far around it marked
# (its reach is 20 steps; the 10 elsewhere left Hard seed 2's flags with trees in reach unmarked).
IDLE_FLAG_MARK_HARSH = 14
# The trees within this many tiles of a forester are marked for cutting (its reach is 20 steps).
FORESTER_CUT = 14


def clear_dead_crops(t: Turn) -> None:
    """Removes the crops that died (dry in a drought, poisoned in a badtide): their stumps hold
    the tile, nobody clears them, and the farms have nothing left to plant on (Hard seed 10: 330
    dead carrots on the farms' land after the third drought, 30 tiles growing for 21 beavers and
    everyone dead of hunger)."""
    if not t.of(t.kit.farm):
        return
    try:
        crops = t.c.crops(limit=0)
    except colony.ColonyError:
        return
    dead = [k for k in crops if not k.get("alive", True)]
    cleared = 0
    for k in dead:
        try:
            t.c.crop_demolish(id=k["id"])
            cleared += 1
        except colony.ColonyError:
            continue
    if cleared:
        t.say(f"cleared {cleared} dead crops from the farmland")


def forester_first(t: Turn) -> None:
    """On harsh seasons the Forester, once unlocked, comes before every need but the first pump
    and the streets (an unaffordable one keeps its logs from them this turn): on a map whose
    forests in reach are cut out it is the only wood there will be (Hard seed 28: unlocked on
    day 9 with 8 logs, the 12 of day 10 went to a second pump, and the logs stayed at 0 for the
    rest of the game). Its unlock comes first too once an inventor stands, so the day's logs
    are still there (seed 14: unlocked on day 8 after the day's 13 logs were spent)."""
    if not harsh(t) or t.count("Forester") > 0:
        return
    if t.name("Forester") not in t.costs() and t.count(t.kit.inventor) > 0:
        science(t, early=True)
    if t.name("Forester") in t.costs():
        forestry(t)


def forestry(t: Turn) -> None:
    """Once the Forester is unlocked, one where the most free moist soil lies in reach replants
    Birch (the fastest tree, 7 days, both factions) on it: the forests near home run out."""
    flags = t.of(t.kit.lumberjack)
    if not flags or t.name("Forester") not in t.costs():
        return
    if t.count("Forester") == 0:
        # The service ranks a forester's spots by the free moist soil and saplings in its reach.
        placed = t.place("Forester", (t.dc["x"], t.dc["y"]), REACH, "trees to replant")
        if placed is None:
            return
        t.prioritize(placed)
    for forester in t.of("Forester"):
        # Trees grow only on moist soil (growth is binary on moisture, in the sim's land/plants.rs):
        # a Birch planted on dry land never grows and dies in 11 days.
        plant_around(t, forester, crop="Birch", moist_only=True, most=40)
        cut_by(t, forester)


def cut_by(t: Turn, forester: dict[str, Any]) -> None:
    """A lumberjack beside the forester and its trees marked for cutting as they grow: the flags
    by the old forests stood out of reach (Hard seed 1: 22 grown Birches by the Forester on day
    20, none marked, every flag `no trees marked in range`)."""
    mark_trees(t, forester, FORESTER_CUT)
    if any(steps(f, forester) <= 8 for f in t.of(t.kit.lumberjack)):
        return
    placed = t.place(
        t.kit.lumberjack,
        (forester["x"], forester["y"]),
        4,
        "to cut what the forester plants",
        widen=False,
    )
    if placed:
        t.prioritize(placed)


def plant_around(
    t: Turn,
    farm: dict[str, Any],
    crop: str | None = None,
    moist_only: bool = True,
    most: int = 60,
    spots: list[dict[str, Any]] | None = None,
) -> int:
    """Marks free tiles in a farm's (or forester's) reach for its crop (by default the first
    crop in the kit, on moist soil only), `most` at most; `spots`: the building's planting spots
    when already found. Returns the tiles marked."""
    crop = crop or t.kit.crops[0]
    if spots is None:
        spots = planting_spots(t, farm, crop)
    free = [s for s in spots if (s.get("moist") or not moist_only) and not s.get("planted")]
    marked = 0
    for s in free[: max(0, most)]:
        try:
            r = t.c.planting_mark(x1=s["x"], y1=s["y"], x2=s["x"], y2=s["y"], z=s["z"], crop=crop)
            marked += int(r.get("marked", 0))
        except colony.ColonyError:
            continue
    if marked:
        t.say(f"marked {marked} tiles of {crop} around the farm at ({farm['x']}, {farm['y']})")
    return marked


def planting_spots(t: Turn, planter: dict[str, Any], crop: str) -> list[dict[str, Any]]:
    """The free tiles in a farm's or forester's reach where `crop` may go (not those marked for
    another species), each with `moist` and `planted` (marked for it)."""
    try:
        return t.c.planting_find(crop=crop, id=planter["id"])["spots"]
    except colony.ColonyError:
        return []


def sow(t: Turn) -> None:
    """Marks crops around the farms up to CROP_TILES_PER_BEAVER a beaver once the food holds
    (at least CROP_TILES_MIN), counting those growing, ripe and marked: the moist soil beyond is
    left to the forester, the only land trees grow on."""
    farms = t.of(t.kit.farm)
    crop = t.kit.crops[0]
    found = {f["id"]: planting_spots(t, f, crop) for f in farms}
    marked = {(s["x"], s["y"]) for ss in found.values() for s in ss if s.get("planted")}
    per_beaver = CROP_TILES_PER_BEAVER
    # Short of food (Hard: the crops die after two dry days in every drought), every moist tile.
    if t.summary["projections"]["foodDays"] < FOOD_RICH_DAYS + t.hazard_days():
        per_beaver = CROP_TILES_HUNGRY
    wanted = max(CROP_TILES_MIN, per_beaver * t.population)
    budget = wanted - t.crop_tiles() - len(marked)
    for farm in farms:
        if budget <= 0:
            break
        budget -= plant_around(t, farm, crop, most=budget, spots=found[farm["id"]])


def tree_stands(t: Turn) -> list[dict[str, Any]]:
    """The living trees around the district center grouped in stands (see `Turn.stands`)."""
    dc = t.dc
    try:
        trees = t.c.trees(x=dc["x"], y=dc["y"], radius=TREE_SEARCH, limit=0)
    except colony.ColonyError:
        return []
    if isinstance(trees, dict):
        trees = trees.get("items", [])
    cells: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for tree in trees:
        if tree.get("alive", True):
            key = (tree["x"] // STAND_CELL, tree["y"] // STAND_CELL)
            cells.setdefault(key, []).append(tree)
    out = []
    for members in cells.values():
        levels = [m["z"] for m in members]
        out.append(
            {
                "x": round(sum(m["x"] for m in members) / len(members)),
                "y": round(sum(m["y"] for m in members) / len(members)),
                "z": max(set(levels), key=levels.count),
                "grown": sum(1 for m in members if m.get("grown")),
                "total": len(members),
            }
        )
    return sorted(out, key=lambda k: steps(k, dc))


def forests(t: Turn) -> list[dict[str, Any]]:
    """Stands of trees a flag could cut, nearest first: those around home, then, once those hold
    fewer than FAR_FORESTS_BELOW grown trees, the map's densest stands up to FAR_FOREST_STEPS
    away (Hard seed 7: 11 trees within 36 tiles of home, the next forest 55-67 steps off)."""
    near = t.stands()
    if sum(k["grown"] for k in near) >= FAR_FORESTS_BELOW:
        return near
    try:
        dense = t.c.tree_clusters()  # the map's five densest stands
    except colony.ColonyError:
        return near
    far = [
        k for k in dense if TREE_SEARCH < steps(k, t.dc) <= FAR_FOREST_STEPS and k["z"] == t.dc["z"]
    ]
    return near + sorted(far, key=lambda k: steps(k, t.dc))


def wood(t: Turn) -> None:
    """Lumberjacks by the nearest forests, the grown trees around them marked; a new flag by
    another forest when the marked trees run out or the flags have nothing left in reach."""
    flags = t.of(t.kit.lumberjack)
    if harsh(t):
        flags = [f for f in flags if not unreachable_site(t, f)]
    if t.summary["trees"]["markedGrown"] < 10:
        for lj in flags:
            mark_trees(t, lj, 14)
    # A flag with no marked tree in its reach (`inReach` of the one-building view) gets the
    # trees around it marked; the colony's
    # marked trees may all lie out of every flag's reach (seed 1: 18 marked, none cut from day 13
    # on, the logs stuck at 1 and nothing more could be built).
    reach = {f["id"]: in_reach(t, f) for f in flags if f.get("finished")}
    idle = [f for f in flags if reach.get(f["id"], {}).get("treesMarked", 1) == 0]
    for lj in idle:
        mark_trees(t, lj, IDLE_FLAG_MARK_HARSH if harsh(t) else 10)
    # Those with grown trees in reach have them marked now and cut them; the others wait.
    idle = [f for f in idle if reach[f["id"]].get("trees", 0) == 0]
    flag_workers(t, flags, idle)
    working = [f for f in flags if f not in idle]
    # Forests worth a flag without a working one nearby, nearest first: ten grown trees or more,
    # or four once no more than one flag still cuts (the big forests near home are gone by day
    # 30 on some seeds, seed 10: 157 grown trees left in small stands and the logs at 1).
    # On harsh seasons a flag counts as cutting only with marked trees in reach: the flags by
    # the Forester's saplings held the bar at ten while the next stand had nine (Hard seed 9:
    # two flags with 2 saplings each and nothing to cut from day 10 on, the logs at 0-10).
    cutting = working
    if harsh(t):
        cutting = [f for f in working if reach.get(f["id"], {}).get("treesMarked", 0) > 0]
    min_grown = 10 if len(cutting) >= 2 else 4
    clusters = [
        k
        for k in forests(t)
        if k["grown"] >= min_grown
        and all(steps(k, f) > 12 for f in working)
        and all(steps(k, f) > 6 for f in idle)
    ]
    # Flags cost nothing and logs are the first bottleneck: two from the start, one more per
    # eight beavers, and one more whenever the marked trees run low.
    wanted = max(2, t.population // 8)
    if t.summary["trees"]["markedGrown"] < 10 and len(working) >= wanted:
        wanted = len(working) + 1
    for k in clusters[: max(0, wanted - len(working))]:
        placed = t.place(
            t.kit.lumberjack,
            (k["x"], k["y"]),
            FLAG_SEARCH,
            f"{k['grown']} grown trees there",
            widen=False,
        )
        if placed:
            t.prioritize(placed)
            mark_trees(t, k, 10)
            t.say(f"marked the trees around ({k['x']}, {k['y']}) for cutting")
            # An idle flag far from every forest left holds a worker for nothing.
            spent = next(
                (f for f in idle if all(steps(c, f) > 10 for c in t.stands() if c["grown"])),
                None,
            )
            if spent is not None:
                idle.remove(spent)
                try:
                    t.c.building_demolish(id=spent["id"])
                    t.say(f"took down the idle lumberjack at ({spent['x']}, {spent['y']})")
                except colony.ColonyError:
                    pass


def unreachable_site(t: Turn, flag: dict[str, Any]) -> bool:
    """Takes down a flag's site that no builder can reach (True): it is never built, and as a
    flag it kept every other flag from its forest (Hard seed 2: the flag by the stand with 34
    marked trees `unreachable` from day 4 to the end, the logs at 1-9)."""
    if flag.get("finished") or "unreachable" not in flag.get("statuses", []):
        return False
    try:
        t.c.building_demolish(id=flag["id"])
    except colony.ColonyError:
        return False
    t.buildings = [b for b in t.buildings if b["id"] != flag["id"]]
    t.say(f"took down the unreachable lumberjack site at ({flag['x']}, {flag['y']})")
    return True


def mark_trees(t: Turn, at: dict[str, Any], r: int) -> None:
    """Marks the trees within r of `at` for cutting: at its level only, and on harsh seasons at
    every level a tree stands on there (the area is marked one level at a time, and a flag cuts
    the trees a step up or down too: Hard seed 2 had 9 trees in each flag's reach on the bank
    above, none marked, and the logs at 1-9 from day 12 to the end)."""
    levels = {int(at["z"])}
    if harsh(t):
        try:
            trees = t.c.trees(x=at["x"], y=at["y"], radius=r, limit=0)
        except colony.ColonyError:
            trees = []
        if isinstance(trees, dict):
            trees = trees.get("items", [])
        levels |= {int(k["z"]) for k in trees if k.get("grown") and not k.get("marked")}
    for z in sorted(levels):
        t.c.cutting_area(**t.box(at["x"], at["y"], r), z=z, marked=True)


def in_reach(t: Turn, b: dict[str, Any]) -> dict[str, Any]:
    """What a lumberjack, gatherer, farm or forester has in reach (`inReach` of the one-building
    view: trees, treesMarked, bushes, bushesRipe, ...); empty when unknown."""
    try:
        found = t.c.buildings(id=b["id"], limit=0)
    except colony.ColonyError:
        return {}
    return (found[0] if found else {}).get("inReach") or {}


def flag_workers(t: Turn, flags: list[dict[str, Any]], idle: list[dict[str, Any]]) -> None:
    """A flag with no grown tree in reach lets its worker go (to a farm, a pump, the builders)
    and gets it back once there are trees to cut: idle flags held three of Hard seed 1's twelve
    beavers for days while the Forester stood unstaffed."""
    for lj in flags:
        if not lj.get("finished") or "maxWorkers" not in lj:
            continue
        want = 0 if lj in idle else int(lj["maxWorkers"])
        if int(lj.get("desiredWorkers", want)) == want:
            continue
        try:
            t.c.building_workers(id=lj["id"], count=want)
            t.say(f"lumberjack at ({lj['x']}, {lj['y']}): {want} workers")
        except colony.ColonyError:
            continue


def thin_forests(t: Turn) -> bool:
    """Fewer than 40 grown trees in the stands around home."""
    return sum(k["grown"] for k in t.stands()) < 40


def harsh(t: Turn) -> bool:
    """Short temperate seasons (Hard: 5-8 days against Normal's 13-17, data/world.json): the
    long hazards that follow leave no time to wait for wood."""
    temperate = t.summary["weather"].get("temperateWeatherDuration") or 99
    return temperate <= HARSH_TEMPERATE_DAYS


def early_science(t: Turn) -> None:
    """With the forests thin or the seasons harsh, the inventor and the Forester come before
    pods, homes and tanks: the logs that trickle in would otherwise go to those first, forever
    (Hard seeds 1, 2 and 9: the forests a path reaches cut out by day 11, the Forester unlocked
    then and not afforded for days, the logs at 5-8)."""
    if thin_forests(t) or harsh(t):
        science(t, early=True)
        forestry(t)


def science(t: Turn, early: bool = False) -> None:
    """An inventor once water and food hold (`early`: once a farm is placed), then unlocks in the
    kit's order."""
    # Early too once the forests at home run thin: the Forester (the first unlock) is then the
    # only wood there will be (IronTeeth seed 4: no stand left within reach by day 12, the logs
    # at 1 for the rest of the game, no tank, pod or barrack affordable).
    if t.count(t.kit.farm) == 0 or (t.summary["projections"]["waterDays"] < 2 and not early):
        return
    dc = (t.dc["x"], t.dc["y"])
    if t.count(t.kit.inventor) == 0:
        inventor = t.place(t.kit.inventor, dc, REACH // 2, "science for better buildings")
        if inventor and early:
            t.prioritize(inventor)
    points = t.summary.get("science", 0)
    unlockables = t.c.science()["unlockables"]
    for base in t.kit.unlocks:
        u = next((u for u in unlockables if u["name"] == t.name(base)), None)
        if u is None or u["unlocked"]:
            continue
        if u["cost"] <= points:
            try:
                t.c.science_unlock(building=u["name"])
            except colony.ColonyError as e:
                t.say(f"could not unlock {base}: {e}")
                break
            t.say(f"unlocked {base} for {u['cost']} science")
            # The turn's view too: science runs twice in a turn when it comes early.
            t.summary["science"] = points - u["cost"]
            t._costs = None  # the unlocked prefab's cost is known from now on
        elif early and base == "Forester" and points >= u["cost"] - 10:
            # The Forester's logs are kept from the less vital needs a day before it is bought.
            t.reserved += FORESTER_LOGS
        break
    if early and harsh(t):
        inventor_after_forester(t)


def inventor_after_forester(t: Turn) -> None:
    """On harsh seasons the inventor's worker goes back to the colony once the Forester is
    bought: the later unlocks are not worth a beaver's labor there."""
    if t.name("Forester") not in t.costs():
        return
    for inventor in t.of(t.kit.inventor):
        if inventor.get("finished") and int(inventor.get("desiredWorkers", 0)) > 0:
            try:
                t.c.building_workers(id=inventor["id"], count=0)
                t.say("the Forester is bought: the inventor's worker goes back to work")
            except colony.ColonyError:
                pass


def steps(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Ground steps between two things with `x` and `y` (Manhattan distance)."""
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"])
