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
  the colony alive at day 40): ``districts.py``.
- **power-mill** (a lumber mill on water power, 50 planks in 15 days) and **flood-control** (a
  floodgate driven by a depth sensor, the colony alive at day 20): ``water_works.py``.
- **feed-40**: ``growth.py`` (the scripted player's needs, a forest of its own, a store for the
  last drought and no kits once 40 have lived; not solved yet).

Stateless like ``scripted.py``: every turn it reads the colony and does what is missing. Per-turn
(``colony eval --agent 'python3 agents/scenarios.py'``) or persistent (``--agent-mode persistent``
with ``--persistent``).
"""

from __future__ import annotations

import json
import os
import sys

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import districts  # noqa: E402
import growth  # noqa: E402
import scripted  # noqa: E402
import water_works  # noqa: E402
from scripted import Turn  # noqa: E402

# --- which scenario ----------------------------------------------------------------------------


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
    "two-districts": districts.two_districts,
    "feed-40": growth.play,
    "power-mill": water_works.power_mill,
    "flood-control": water_works.flood_control,
}


# Buildings placed per turn at most, by scenario (scripted.MAX_NEW_SITES, set every turn; the
# scripted player's 4 elsewhere): power-mill lays out its lab on the first turn.
NEW_SITES = {"power-mill": 8}


def play(c: colony.Colony, prompt: str) -> None:
    sid = scripted.scenario_of(prompt)
    scripted.MAX_NEW_SITES = NEW_SITES.get(sid, 4)
    # feed-40 gates its growth its own way (`growth.GrowthTurn`).
    t = (growth.GrowthTurn if sid == "feed-40" else Turn)(c, sid)
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
