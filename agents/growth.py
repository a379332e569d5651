"""feed-40 (grow to 40 beavers and keep them fed, 80 days): the scripted player's needs with a
forest of its own.

What held the colonies back (`agents/scripted.py` on dev seeds 1-5 and extra seeds 11-30): wood.
The seeds that reach 40 cut 700-840 logs in the game; the rest cut 120-300, and the Forester
planted almost nothing (0-86 tiles of Birch in a whole game on 25 seeds): the farms had marked
the moist soil in its reach for carrots first (25 tiles a beaver while the food is short, which
is most of the first days), and trees grow only on moist soil. The wild trees do not make up for
it: 130-180 logs stand within 40 steps of the district center on seeds 4, 5, 14, 16 and 28.

So here the inventor comes with the first farm, the Forester as soon as its 30 points are in,
placed where the most free moist soil lies in its reach, and it gets a forest's worth of that
soil marked for trees before the farms can take it (`FOREST_TILES`), with lumberjacks beside it.
Stateless like the rest: every turn reads the colony and does what is missing.

Then the end (v11): from day 45 warehouses for 13 days of eating (`store`), so the farms keep
their workers and the harvest before the last drought (day 69-71, 6 days) is kept; and once the
hourly history shows 40 beavers, the homes whose beds the others can spare are demolished
(`no_births`: no free bed, no kit, and the founders dying of old age leave fewer mouths by day
80) and work ends at 22:00 (`long_days`). Every colony that reached 40 then ended with 3.9-12
days of food (v9: 0-1).

A colony of 14 or more with under 1.5 days of food sheds its free beds too (v14): fewer kits
born into hunger.

Not solved: 0/5 dev seeds (mean 58.8; the scripted player 0/5, 52.8) and 4/20 extra seeds 11-30
(12, 20, 25, 26; mean 65.5, the scripted player 0/20, 64.7); the rest never reach 40: homes
without a joinable spot (dev seed 1 stops at 39), pumps without one (the banks by the district
center built over and lined with crops), crops short of what 33 beavers eat (extra seeds 11, 13,
17, 29), or too little wood (dev seeds 3-5). The numbers and what was tried:
docs/feed-40-arithmetic.md.

Round four (v25, docs/feed-40-arithmetic.md, "Round four"): on a hemmed-in start only
(`first_look`'s `walled`: under 10 free dry tiles within 8 steps of the door on turn 1), homes
and stores go to a town on the dry land with an avenue to it (round three's town, which
elsewhere cost more than it gave): dev 0/5 (mean 69.2), extra 5/20 (12, 20, 25, 26, 27; 67.6);
the other 22 seeds play as v14.

Round eight (v39): a farm more only while no farm stands idle for want of room
(`farms_busy`): 13 of the 55 tuning seeds against v25's 9 (docs/feed-40-arithmetic.md).

Round nine (v46): on a wood-poor start (`WOOD_POOR_TREES`, read on the first turn with the
hemmed-in verdict: `first_look`) one farm until the Forester stands: 14 of the 55 against 13.

Round ten (rules revision 7, under which v46 plays 13 of the 55): the last push (v50,
`push_ok`: once 27 adults live, beds for 41 while the food lasts 4 days, whatever the crop
tiles) 16; and where no home can be joined any more a Lodge rebuilt as a DoubleLodge on its own
spot (v51, `upgrade_lodge`) 19, none lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import scripted  # noqa: E402
import scripted_land  # noqa: E402
from scripted import Turn  # noqa: E402
from scripted_land import cut_by, planting_spots, science, steps  # noqa: E402

# Moist tiles a forester gets marked for trees, in all (its reach holds a few hundred tiles; the
# farms mark theirs within 20 steps of the farm, so a forester placed on free soil keeps most).
FOREST_TILES = 120
# The species, by the share of a forester's tiles: Pine gives 2 logs in 12 days (Birch 1 in 7,
# Oak 8 in 30; data/nature.json), for one planting and one cut (1.2 work-hours) each.
FOREST_SPECIES = (("Pine", 1.0),)
# A second forester once this many beavers live (its 7 planks are the last of the 20 the colony
# starts with, after the first's 7).
SECOND_FORESTER_AT = 16
# A start with fewer grown trees than this round home (scripted_land.TREE_SEARCH, first turn) is
# wood-poor: one farm (25 logs) until the Forester stands, the logs going to it and the homes first.
# v39 built two farms on days 3-5 everywhere, and the colonies with 26-75 grown trees round home cut
# 171-383 logs in 80 days and never passed 29 beavers (docs/feed-40-arithmetic.md, "Round nine").
WOOD_POOR_TREES = 76


# The colony grows (spare beds) while the food stored lasts GROWTH_FOOD_DAYS, plus the next
# hazard's days once it is HAZARD_SOON_DAYS off or nearer: the scripted player adds them from
# 8 days off, which held seed 1 at 19-21 beavers from day 30 to 56 with 7.3 days of food and
# 120-210 logs in store (it reached 40 on day 80, with no food left). Kits born now are adults
# (and workers) when the hazard comes.
HAZARD_SOON_DAYS = 4


# The town (v25; round three's v15/v20 without the kept pump spots, and only on a hemmed-in start):
# where the district center's door has almost no free dry land round it (fewer than
# WALLED_DRY_TILES free dry tiles at its level within WALLED_STEPS steps, on the first turn: dev
# seed 3 and extra seeds 21 and 27 have 0-9, the other 22 seeds 12-130), the farm's carrots and
# the trees wall the network in within days (v14 dev seed 3: no home ever, `found no joinable
# spot` for every home, tank and warehouse from day 5; seeds 21 and 27 stalled at 18 and 12).
# There the homes, warehouses, tanks, piles and the inventor go round the district center when a
# spot is joinable within REACH // 2, else round a town's center on the nearest free dry land, and
# an avenue (a path) is laid to it from the first turn, before the crops line the way (a living
# plant blocks a path). Everywhere else the game is v14's: an avenue on every seed (v15, v20, v23)
# moves the first farm and every building after, and lost seeds 12 and 26 (41 -> 24 and 30).
TOWN_KINDS = ("Lodge", "DoubleLodge", "SmallWarehouse", "SmallTank", "LargePile", "Inventor")
WALLED_STEPS = 8
WALLED_DRY_TILES = 10
# The town's center: a free dry tile with at least TOWN_ROOM free dry tiles in the square of
# radius TOWN_BOX round it (81 tiles), nearest the district center's door, TOWN_MIN_STEPS to
# TOWN_MAX_STEPS steps from it.
TOWN_BOX = 4
TOWN_ROOM = 45
TOWN_MIN_STEPS = 6
TOWN_MAX_STEPS = 26
# Tiles a town building may take (`free_dry`) may hold these.
PASSABLE = ("Path",)
# The first turn's verdict (hemmed in or not) is noted in the agent's notes folder
# (`COLONY_AGENT_STATE_DIR`, kept from turn to turn by `colony eval`): the buildings placed later
# take the dry land, so it is read once. Without the folder it is read anew each turn.
NOTES = "growth-town.json"


class GrowthTurn(Turn):
    """A feed-40 turn: the scripted player's, its growth held back only by a hazard near, and on
    a hemmed-in start its homes and stores in a town on the dry land (`TOWN_KINDS`)."""

    _town: tuple[int, int] | None = None
    _town_read = False
    _first: dict[str, Any] | None = None

    def first_look(self) -> dict[str, Any]:
        """The first turn's verdicts (`first_look`), from the notes when kept."""
        if self._first is None:
            self._first = first_look(self)
        return self._first

    def walled(self) -> bool:
        """Whether the start is hemmed in (see WALLED_DRY_TILES)."""
        return bool(self.first_look()["walled"])

    def wood_poor(self) -> bool:
        """Whether the start had fewer than WOOD_POOR_TREES grown trees round it."""
        return int(self.first_look()["grownTrees"]) < WOOD_POOR_TREES

    def town(self) -> tuple[int, int] | None:
        """The town's center (see TOWN_ROOM), or None where the dry land has no such room."""
        if not self._town_read:
            self._town_read = True
            self._town = town_center(self)
        return self._town

    def place(
        self,
        base: str,
        near: tuple[int, int],
        r: int = 12,
        why: str = "",
        min_depth: float = 0.0,
        plaza: int = scripted.PLAZA_STEPS,
        widen: bool = True,
        force: bool = False,
    ) -> dict[str, Any] | None:
        """The scripted player's placement; on a hemmed-in start the town's kinds round the
        district center without the wider rings, then round the town's center."""
        dc = (self.dc["x"], self.dc["y"])
        town = base in TOWN_KINDS and near == dc and not force and self.walled()
        if (
            town
            and self.town() is not None
            and self.affordable(base, keep=self.reserved)
            and self.new_sites < scripted.MAX_NEW_SITES
        ):
            # Round the district center first (the haulers' walk), without the wider rings;
            # then the town.
            placed = super().place(base, near, r, why, min_depth, plaza, False, force)
            if placed is not None:
                return placed
            near = self.town() or dc
        return super().place(base, near, r, why, min_depth, plaza, widen, force)

    def growth_ok(self) -> bool:
        proj = self.summary["projections"]
        need = scripted.GROWTH_FOOD_DAYS
        if self.days_to_hazard() < HAZARD_SOON_DAYS:
            need += self.hazard_days()
        if self.population < scripted.FLOOR_BEAVERS:
            return proj["foodDays"] >= scripted.FLOOR_FOOD_DAYS and proj["waterDays"] >= 1
        return (
            proj["foodDays"] >= need
            and proj["waterDays"] >= 2
            and self.crop_tiles() >= scripted.TILES_PER_BEAVER * self.population
        )


def notes_path() -> str | None:
    folder = os.environ.get("COLONY_AGENT_STATE_DIR")
    return os.path.join(folder, NOTES) if folder else None


def free_dry(tile: dict[str, Any], z: int) -> bool:
    """A tile a building of the town may take: at level z, dry, no water, nothing on it."""
    if tile["terrain"] != z or tile.get("moist") or tile.get("water", 0.0) > 0.05:
        return False
    return all(o["name"] in PASSABLE for o in tile.get("occupants", []))


def first_look(t: Turn) -> dict[str, Any]:
    """What the first turn saw, noted then and read from the notes after: the free dry tiles
    within WALLED_STEPS steps of the district center's door (`dryTiles`, `walled` below
    WALLED_DRY_TILES) and the grown trees within scripted_land.TREE_SEARCH of it (`grownTrees`)."""
    path = notes_path()
    if path is not None and os.path.exists(path):
        try:
            with open(path) as f:
                noted = json.load(f)
            if {"walled", "grownTrees"} <= noted.keys():
                return noted
        except (OSError, ValueError, TypeError):
            pass
    door = (t.dc["entranceX"], t.dc["entranceY"])
    try:
        tiles = t.c.tiles(**t.box(door[0], door[1], WALLED_STEPS))["tiles"]
    except colony.ColonyError:
        tiles = []
    z = t.dc["z"]
    dry = sum(
        1
        for k in tiles
        if abs(k["x"] - door[0]) + abs(k["y"] - door[1]) <= WALLED_STEPS and free_dry(k, z)
    )
    seen = {"walled": bool(tiles) and dry < WALLED_DRY_TILES, "dryTiles": dry}
    seen["grownTrees"] = sum(k["grown"] for k in t.stands())
    if path is not None:
        with contextlib.suppress(OSError), open(path, "w") as f:
            json.dump(seen, f)
    if seen["walled"]:
        t.say(
            f"{dry} free dry tiles within {WALLED_STEPS} steps of the door: a town on the dry land"
        )
    if seen["grownTrees"] < WOOD_POOR_TREES:
        t.say(f"{seen['grownTrees']} grown trees round home: one farm until the Forester stands")
    return seen


def town_center(t: Turn) -> tuple[int, int] | None:
    """The free dry tile nearest the district center's door with TOWN_ROOM free dry tiles round
    it (see TOWN_BOX), None where there is none."""
    door = (t.dc["entranceX"], t.dc["entranceY"])
    r = TOWN_MAX_STEPS + TOWN_BOX
    try:
        tiles = t.c.tiles(**t.box(door[0], door[1], r))["tiles"]
    except colony.ColonyError:
        return None
    z = t.dc["z"]
    free = {(k["x"], k["y"]) for k in tiles if free_dry(k, z)}
    best: tuple[int, int, int] | None = None
    for x, y in free:
        d = abs(x - door[0]) + abs(y - door[1])
        if not TOWN_MIN_STEPS <= d <= TOWN_MAX_STEPS or (best is not None and d >= best[0]):
            continue
        room = sum(
            (x + dx, y + dy) in free
            for dx in range(-TOWN_BOX, TOWN_BOX + 1)
            for dy in range(-TOWN_BOX, TOWN_BOX + 1)
        )
        if room >= TOWN_ROOM:
            best = (d, x, y)
    return None if best is None else (best[1], best[2])


def avenue(t: GrowthTurn) -> None:
    """On a hemmed-in start, a path from the district center's door to the town's center: laid
    on the first turn, before the farms' crops line the way (a living plant blocks a path); the
    town's center moves to free land as the town fills, and the avenue with it."""
    if not t.walled():
        return
    town = t.town()
    if town is None:
        return
    here = t.c.tiles(x1=town[0], y1=town[1], x2=town[0], y2=town[1])["tiles"]
    if here and scripted.is_path(here[0]):
        return
    door = (t.dc["entranceX"], t.dc["entranceY"])
    try:
        answer = t.c.path_place(x1=door[0], y1=door[1], x2=town[0], y2=town[1])
    except colony.ColonyError as e:
        t.say(f"could not lay an avenue to the town at {town}: {e}")
        return
    if not answer.get("stoppedAt") and not answer.get("errors"):
        t.say(f"laid an avenue to the town at {town}")


def forests(t: Turn) -> None:
    """Foresters on the freest moist soil, their tiles marked for trees, a lumberjack by each."""
    if t.name("Forester") not in t.costs():
        return
    wanted = 1 if t.population < SECOND_FORESTER_AT else 2
    dc = (t.dc["x"], t.dc["y"])
    if t.count("Forester") < wanted:
        placed = t.place("Forester", dc, scripted.REACH, "a forest of our own")
        if placed is not None:
            t.prioritize(placed)
    for forester in t.of("Forester"):
        plant_forest(t, forester)
        cut_by(t, forester)


def plant_forest(t: Turn, forester: dict[str, Any]) -> None:
    """Marks the forester's free moist tiles for its species up to FOREST_TILES in all."""
    for crop, share in FOREST_SPECIES:
        spots = planting_spots(t, forester, crop)
        marked = sum(1 for s in spots if s.get("planted"))
        free = [s for s in spots if s.get("moist") and not s.get("planted")]
        # Nearest the forester first: its planter walks less.
        free.sort(key=lambda s: steps(s, forester))
        budget = int(FOREST_TILES * share) - marked
        done = 0
        for s in free[: max(0, budget)]:
            try:
                r = t.c.planting_mark(
                    x1=s["x"], y1=s["y"], x2=s["x"], y2=s["y"], z=s["z"], crop=crop
                )
                done += int(r.get("marked", 0))
            except colony.ColonyError:
                continue
        if done:
            where = f"({forester['x']}, {forester['y']})"
            t.say(f"marked {done} tiles of {crop} around the forester at {where}")


def farms_busy(t: Turn) -> bool:
    """Whether a farm more could raise the harvest: no farm stands idle with its store full
    (`scripted.food` asks, besides, that every farm be built). A farm whose crops have nowhere to
    go (`no storage for`) keeps one farmer (`scripted.labor`) and leaves its tiles unplanted, so
    the crops counted fall short of the beavers for want of room, not of farms: v25 built 10-22
    farmhouses (25 logs each) on 24 of the 55 tuning seeds, seed 34 twelve for 20 beavers, most
    standing idle, and no spot was left round the district center for a home
    (docs/feed-40-arithmetic.md, "Round eight")."""
    return not any(scripted.store_full(f) for f in t.of(t.kit.farm))


def food(t: GrowthTurn) -> None:
    """The scripted player's food, with a farm more only while the farms are busy, and on a
    wood-poor start one farm until the Forester stands (`WOOD_POOR_TREES`)."""
    cap = 1 if t.wood_poor() and t.count("Forester") == 0 else 0
    scripted.food(t, more_farms=farms_busy(t), farms_cap=cap)


def homes(t: Turn) -> None:
    """Beds for everyone and, while the colony may grow, beds for half as many again (the
    scripted player's rule for feed-40), but no more than GROW_TO beds: half as many again at 36
    beavers overshot to 54 on seed 20, which ended with no food."""
    beds = t.kit.beds * t.count(t.kit.home) + scripted.DOUBLE_LODGE_BEDS * t.count("DoubleLodge")
    home, per_home = t.kit.home, t.kit.beds
    if t.name("DoubleLodge") in t.costs():
        home, per_home = "DoubleLodge", scripted.DOUBLE_LODGE_BEDS
    spare = 0
    if t.growth_ok() and scripted.most_beavers(t) < t.grow_ask:
        spare = max(scripted.SPARE_BEDS, t.population // 2)
    elif push_ok(t):
        spare = t.grow_ask + 1 - t.population
    wanted = min(t.population + spare, max(t.population, t.grow_to))
    dc = (t.dc["x"], t.dc["y"])
    while beds < wanted:
        why = f"{beds} beds for {t.population}"
        if t.place(home, dc, scripted.REACH // 2, why) is not None:
            beds += per_home
        elif home == "DoubleLodge" and upgrade_lodge(t, why):
            beds += scripted.DOUBLE_LODGE_BEDS - t.kit.beds
        else:
            break


def upgrade_lodge(t: Turn, why: str) -> bool:
    """Where no home can be joined any more, a Lodge (3 beds) is taken down and a DoubleLodge (6
    beds on the same 2 x 2 tiles, data/buildings.json) put on its spot, its doorstep where the
    Lodge's was (v50 seeds 38 and 44: `found no joinable spot` for every home from day 51-52,
    29 and 38 adults in full beds, 180 logs idle). The Lodge with the fewest dwellers goes;
    they sleep without a home until the DoubleLodge is built."""
    double = t.name("DoubleLodge")
    if (
        double not in t.costs()
        or t.new_sites >= scripted.MAX_NEW_SITES
        or not t.affordable("DoubleLodge", keep=t.reserved)
    ):
        return False
    lodges = [b for b in t.of(t.kit.home) if b.get("finished")]
    if not lodges:
        return False
    lodge = min(lodges, key=lambda b: (int(b.get("dwellers") or 0), b["id"]))
    spot = {k: lodge[k] for k in ("x", "y", "z", "orientation")}
    try:
        t.c.building_demolish(id=lodge["id"])
    except colony.ColonyError:
        return False
    t.buildings = [b for b in t.buildings if b["id"] != lodge["id"]]
    try:
        placed = t.c.building_place(prefab=double, **spot)
    except colony.ColonyError as e:
        t.say(f"could not put a DoubleLodge on the Lodge's spot at ({spot['x']}, {spot['y']}): {e}")
        with contextlib.suppress(colony.ColonyError):
            back = t.c.building_place(prefab=t.name(t.kit.home), **spot)
            t.buildings.append({**lodge, "id": back["id"], "finished": False})
        return False
    t.new_site(double, {**lodge, "id": placed["id"], "name": double, "finished": False})
    t.say(f"rebuilt the Lodge at ({spot['x']}, {spot['y']}) as a DoubleLodge: {why}")
    return True


# The last push: once this many adults live, their kits alone can take the colony to GROW_ASK
# (a kit is born only while the children are fewer than half the adults: 27 adults and 13 kits
# are 40), so the beds for it are built while the food lasts PUSH_FOOD_DAYS, whatever the crop
# tiles (`growth_ok` wants 5 a beaver: v46 seeds 11 and 44 held 38 adults in 39 beds from day
# 51 with 6 days of food, their farms out of joinable land).
PUSH_ADULTS = 27
PUSH_FOOD_DAYS = 4


def push_ok(t: Turn) -> bool:
    """Whether the colony's adults could reach GROW_ASK with kits alone, and the food and water
    hold (see PUSH_ADULTS)."""
    if not t.grow_ask or scripted.most_beavers(t) >= t.grow_ask:
        return False
    proj = t.summary["projections"]
    adults = int(scripted.home_district(t.summary["districts"])["population"]["adults"])
    return adults >= PUSH_ADULTS and proj["foodDays"] >= PUSH_FOOD_DAYS and proj["waterDays"] >= 2


# Crop tiles a beaver the farms mark while the food is short, until the forest has its soil (the
# scripted player's 25 took every moist tile in the forester's reach on seeds 2 and 4: 1-17 tiles
# of Pine marked in a game); after, the scripted player's 25 again: the colonies that reached 35-54
# beavers held 3.9-5.1 days of food when the last drought came (day 69-71, 6 days) with 12, and
# ended with 0-1.4.
CROP_TILES_HUNGRY_EARLY = 12
CROP_TILES_HUNGRY = scripted_land.CROP_TILES_HUNGRY
FOREST_SOIL_DAY = 20


# A beaver eats this much a day on Normal (data/colony.json, 2.67; `foodDays` divides by it).
FOOD_PER_BEAVER_DAY = 2.67
# Days of eating the warehouses hold room for: the last drought (day 69-71, 6 days, on every seed
# measured) kills the carrots after two dry days and the new ones ripen four days after it, so
# about 9 days pass without a harvest, and the score wants 3 more at day 80. With fewer warehouses
# the farms fill them before the drought and stand at one worker ("no storage for", v9 seed 1:
# 600 food at day 72 for 31 beavers, 0 at day 80).
STORE_DAYS = 13
# Warehouses for the store from this day (20 days before the last drought: a warehouse costs 3
# logs and takes a builder a few hours).
STORE_FROM_DAY = 45
# A warehouse's units (data/buildings.json SmallWarehouse: 30 for 3 logs).
WAREHOUSE_UNITS = 30


def store(t: Turn) -> None:
    """From STORE_FROM_DAY, warehouses for STORE_DAYS of the colony's eating (or the food there
    is, and two more); before, the scripted player's (`storage`), the logs going to growth."""
    if t.summary["time"]["dayNumber"] < STORE_FROM_DAY:
        return
    food = t.food_stock()
    wanted = max(food + 2 * WAREHOUSE_UNITS, t.population * FOOD_PER_BEAVER_DAY * STORE_DAYS)
    while WAREHOUSE_UNITS * t.count(t.kit.warehouse) < wanted:
        have = WAREHOUSE_UNITS * t.count(t.kit.warehouse)
        why = f"room for {have} of {wanted:.0f} food (the last drought)"
        if t.place(t.kit.warehouse, (t.dc["x"], t.dc["y"]), scripted.REACH // 2, why) is None:
            return


# Below this many days of food a colony of FLOOR_BEAVERS or more sheds its free beds too: the
# beds built while the food held fill with kits when it no longer does (v11 extra seeds 15 and
# 16: 33 and 18 beavers on crops for fewer, 20 and 17 dead before old age; with it 6 and 0).
HUNGRY_DAYS = 1.5


def no_births(t: Turn) -> None:
    """Once the colony has held GROW_ASK beavers (the hourly history says so), or while it is
    hungry (`HUNGRY_DAYS`), no free beds:
    a kit is born only where a bed is free, and every kit born now eats the store the colony
    needs at day 80 (success wants the most ever >= 40, not 40 alive at the end). A home whose
    beds the others can spare is demolished (its dwellers move into the free beds)."""
    if not t.grow_ask:
        return
    hungry = (
        t.population >= scripted.FLOOR_BEAVERS
        and t.summary["projections"]["foodDays"] < HUNGRY_DAYS
    )
    if not hungry and scripted.most_beavers(t) < t.grow_ask:
        return
    # Sites too: a home finished later would free its beds.
    size = {t.name(t.kit.home): t.kit.beds, t.name("DoubleLodge"): scripted.DOUBLE_LODGE_BEDS}
    homes = t.of(t.kit.home) + t.of("DoubleLodge")
    beds = sum(size[h["name"]] for h in homes)
    # Sites first, then the emptiest homes: fewest beavers moved.
    order = sorted(homes, key=lambda h: (bool(h.get("finished")), int(h.get("dwellers") or 0)))
    for h in order:
        if beds - size[h["name"]] < t.population:
            continue
        try:
            t.c.building_demolish(id=h["id"])
        except colony.ColonyError:
            continue
        beds -= size[h["name"]]
        t.say(f"demolished the home at ({h['x']}, {h['y']}): {beds} beds for {t.population}")


# The hour work ends once the colony has held GROW_ASK beavers (the game's 16 before): six more
# work-hours a day for the farms, gatherers and pumps (a pump's output and a farm's harvest go
# with its workers' hours), and with less time asleep fewer kits (a kit comes where a beaver
# goes to sleep in a home; v4 of docs/feed-40-arithmetic.md set 22 from day 1 and no kit was born
# on any seed). Only after the ask: before it, kits are the point. (Not measured alone: the
# variant with it, v11, is the one measured on the extra seeds; docs/feed-40-arithmetic.md.)
WORK_END_AFTER_ASK = 22


def long_days(t: Turn) -> None:
    """Longer work-hours once the colony has held GROW_ASK beavers (`WORK_END_AFTER_ASK`)."""
    if not t.grow_ask or scripted.most_beavers(t) < t.grow_ask:
        return
    try:
        if int(t.c.workhours().get("endHours", 16)) != WORK_END_AFTER_ASK:
            t.c.set_workhours(end_hours=WORK_END_AFTER_ASK)
            t.say(f"work ends at {WORK_END_AFTER_ASK}:00 now that the colony has held {t.grow_ask}")
    except colony.ColonyError:
        pass


def play(t: GrowthTurn) -> None:
    """One feed-40 turn: the scripted player's needs, science from the first farm on and the
    forest before the farms' crops take the moist soil."""
    day = t.summary["time"]["dayNumber"]
    early = day < FOREST_SOIL_DAY
    scripted_land.CROP_TILES_HUNGRY = CROP_TILES_HUNGRY_EARLY if early else CROP_TILES_HUNGRY
    t.first_look()  # read (and noted) before the first buildings take the dry land and trees
    for need in (
        scripted.first_pump,
        scripted.streets,
        avenue,
        scripted.pumps,
        scripted.first_tank,
        scripted.log_pile,
        scripted.first_warehouse,
        lambda t: science(t, early=True),
        forests,
        food,
        scripted.labor,
        scripted.wood,
        scripted.storage,
        homes,
        no_births,
        long_days,
        scripted.tanks,
        store,
    ):
        need(t)
