#!/usr/bin/env python3
"""Reference solutions for the standard scenarios nobody had solved: science-rush, two-districts
and feed-40.

Each builds on the scripted reference player (``scripted.py``: it keeps a Normal colony alive)
and adds what its scenario asks, reading the scenario from the first line of the turn's prompt
(``Scenario ID: title``):

- **science-rush** (five unlocks in 40 days): two inventors from the first day (1 science point
  per work-hour each, data/buildings.json ``SciencePoints``), and every turn the cheapest
  unlockables the points buy. The five cheapest Folktails unlocks cost 30 + 40 + 50 + 50 + 70 = 240
  points: 7.5 days of two inventors at 16 work-hours.
- **two-districts** (a second district founded, the colony alive at day 40): a district center
  placed on the first turn on the farthest joinable spot 34 to 14 tiles from the first center's
  doorstep (nearer rings only where the land farther off is out of a path's reach), first in the
  builders' queue. Adults migrate to it only once its own stores hold water and food (no crossing
  is built yet: that is what a better agent adds).
- **feed-40**: the scripted player, with more farms and homes (see ``feed``).

Stateless like ``scripted.py``: every turn it reads the colony and does what is missing. Per-turn
(``colony eval --agent 'python3 agents/scenarios.py'``) or persistent (``--agent-mode persistent``
with ``--persistent``).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import colony
import scripted
from scripted import Turn

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
            if (
                s.get("flooded")
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
    first, second = districts[0], districts[1]
    pop2 = second["population"]["adults"]
    # Migrants live on the second district's own stores: without water and food there (no
    # crossing yet carries any) they would die of thirst, as they did in the first tries.
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


# --- turns -------------------------------------------------------------------------------------

PLAYS = {
    "science-rush": science_rush,
    "two-districts": two_districts,
    "feed-40": feed_40,
}


def play(c: colony.Colony, prompt: str) -> None:
    t = Turn(c)
    if t.summary.get("gameOver"):
        return
    sid = scenario_of(prompt)
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
