#!/usr/bin/env python3
"""The industry reference agent: the lab quotas (planks-lab, bread-lab, gears-lab) and it-bots.

It builds on the scripted reference player (``scripted.py``: its ``Turn`` and its needs for
streets, pumps, storage and wood) and on ``industry_kit.py`` (footprints, power wheels,
gatherers, lumberjacks, reserved storage), and adds the industry each lab asks for:

- **planks** (planks-lab): lumber mills, each beside a power wheel (50 hp, walked by a worker;
  a mill asks 50 hp), fed by lumberjacks and a pile for the logs;
- **gears** (gears-lab): a gear workshop (120 hp) beside three power wheels (3 x 50 hp), with the
  stored planks as input;
- **bread** (bread-lab): a bakery set to bake bread from the stored wheat flour (it burns a
  little log per batch);
- **bots** (it-bots, IronTeeth): ``bots.py``, three bots from an assembler and its part
  factories (docs/evaluation.md, "it-bots").

Which lab it plays it reads from the turn's prompt (the scenario's goal text), else from what is
unlocked. Every lab is a race against the clock from a fixed start with water and food stored, so
it keeps the colony small: gatherers for berries, pumps only where the horizon outlasts the water
stored, no homes, and work all day long (``POST /api/workhours`` with 24: beavers still eat and
drink when they need to; only sleep goes short, which costs walking speed, not lives).

Stateless like ``scripted.py``: every turn it reads the colony and places what is missing.
Run it with ``colony eval --scenario planks-lab --agent 'python3 agents/industry.py'``.
"""

from __future__ import annotations

import os
import sys

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bots  # noqa: E402
import scripted  # noqa: E402
from industry_kit import (  # noqa: E402
    gatherers,
    lumberjacks,
    pile_for,
    powered,
    warehouses_for,
    wheel_base,
    work_all_day,
)
from scripted import Turn  # noqa: E402

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


# --- the labs ----------------------------------------------------------------------------------


def planks(t: Turn) -> None:
    """Lumber mills with a power wheel each; lumberjacks; piles for logs and planks."""
    scripted.streets(t)
    work_all_day(t)
    pile_for(t, "Log", "room for logs: the district center takes no deliveries")
    scripted.first_warehouse(t)
    gatherers(t, bushes=PLANKS_BUSHES, most=3)
    lumberjacks(t, wanted=3)
    powered(t, "LumberMill", 2, "planks: a mill turns a log into a plank in 1.3 h")
    pile_for(t, "Plank", "room for planks")
    lumber_labor(t)


# planks-lab starts with 20 planks stored; the quota counts those made.
PLANKS_START = 20
PLANKS_QUOTA = 100
# Logs kept for the mills and power wheels still to be built (their sites take most of theirs
# from the stock on the turn they are placed).
LOGS_FOR_SITES = 20
# Gatherer flags until their clusters hold this many bushes (three flags at most): two flags by
# clusters of 3 bushes fed nobody once the 130 stored berries were eaten.
PLANKS_BUSHES = 8


def lumber_labor(t: Turn) -> None:
    """Lumberjacks off work while the logs stored cover the planks still to make (and the mills
    and wheels still to build), back on when they do not: the 8 adults of 12 beavers cannot
    staff 3 lumberjacks, 2 gatherers, 2 mills and 2 wheels, and workers stay where they were
    hired, so with the log pile full the lumberjacks kept their jobs while the mills stood
    unstaffed and unpowered until day 5-6 (seeds 35, 39, 48: 180 logs stored, 96-99 planks)."""
    made = max(0, int(t.stock.get("Plank", 0)) - PLANKS_START)
    sites = [b for b in t.of("LumberMill") + t.of(wheel_base(t)) if not b.get("finished")]
    needed = PLANKS_QUOTA - made + 10
    if sites or t.count("LumberMill") < 2:
        needed += LOGS_FOR_SITES
    want = 0 if t.logs() >= needed else 1
    for b in t.of(t.kit.lumberjack):
        if not b.get("finished") or "maxWorkers" not in b:
            continue
        want_here = min(want, int(b["maxWorkers"]))
        if int(b.get("desiredWorkers", b["maxWorkers"])) == want_here:
            continue
        try:
            t.c.building_workers(id=b["id"], count=want_here)
        except colony.ColonyError:
            continue
        t.say(
            f"lumberjack at ({b['x']}, {b['y']}): {want_here} workers"
            f" ({t.logs()} logs stored, {needed} wanted)"
        )


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


# --- turns -------------------------------------------------------------------------------------


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
        f"{lab} lab: {t.population} beavers, {t.logs()} logs, stock {t.stock}, made last day {made}"
    )
    {"planks": planks, "gears": gears, "bread": bread, "bots": bots.bots}[lab](t)


def main() -> None:
    prompt = "" if sys.stdin.isatty() else sys.stdin.read()
    prompt = prompt or os.environ.get("COLONY_PROMPT", "")
    host = os.environ.get("COLONY_HOST", "127.0.0.1")
    port = int(os.environ.get("COLONY_PORT", "8085"))
    with colony.Colony(host=host, port=port) as c:
        play(c, prompt)


if __name__ == "__main__":
    main()
