"""Dams: a line of dams across the river where it leaves the colony's reach, so that in a drought
the channel keeps water over its bed instead of running off the map.

What a dam does here (``docs/rules.md``, water buildings): a finished Dam (20 logs, no science)
holds the water on its tile up to 0.65 above its base and lets the rest spill over. A river's
channel is a long stretch of one bed level (a *pool*, 700-750 tiles on the 128 maps), and in a
drought its sources stop and it drains off the map edge in about three days; where the pool's
outflow is dammed it keeps up to 0.65 of water over its whole bed instead. Measured on Hard seed
5 (``docs/evaluation.md``, "Hard: a dam across the outflow"): four dams on the pool's outflow at
the map edge keep 296 tiles within 30 of the start under 0.3 m or more of water and 329 land tiles
moist through a 9-day drought, where without them the channel and the soil are dry in three
days. The pumps (0.1 m at the intake is enough) keep pumping, and the crops and trees by the
river stay alive. A badtide is another matter: the held water turns to badwater as the river
does, so the tanks still carry the colony through a badtide.

The line is planned once, on the first turn it is asked for, from the whole map's tiles, and
noted in the agent's notes folder (``COLONY_AGENT_STATE_DIR``, ``dams.json``): the pool is the
largest stretch of wet tiles of one bed level that comes within ``RIVER_REACH`` of the district
center's doorstep; its *rim* is its tiles beside the map edge or beside wet tiles of a lower bed
(where the water leaves it); the rim's groups are told apart by their water surface, the highest
being where the river comes in (its sources) and the rest where it leaves. The outflow's tiles
get a dam each, when there are at most ``MAX_DAMS``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import colony

if TYPE_CHECKING:
    from scripted import Turn

DAM = "Dam"
# Dams in a line at most (20 logs each): a wider outflow costs more than the tanks it saves.
MAX_DAMS = 8
# The pool must come this close (tiles) to the district center's doorstep.
RIVER_REACH = 30
# Water deeper than this makes a tile part of the river.
WET = 0.05
# Builders reach a doorless site from a path within this many tiles (docs/rules.md).
BUILDER_REACH = 10
# The line must hold at least this many of the pool's tiles on the colony's side.
MIN_HELD = 60
NOTES = "dams.json"
# The dams are placed this many days before a drought, at most: a dam standing while the river
# flows raises it over the land by the banks, and the crops there die in two days under water.
DAM_LEAD = 2
# ... and their logs kept from this many days before it (the needs after this one wait).
DAM_SAVE = 6

Tile = tuple[int, int]


def notes_path() -> str | None:
    folder = os.environ.get("COLONY_AGENT_STATE_DIR")
    return os.path.join(folder, NOTES) if folder else None


def read_notes() -> dict[str, Any]:
    path = notes_path()
    if path is None or not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            notes = json.load(f)
    except (OSError, ValueError):
        return {}
    return notes if isinstance(notes, dict) else {}


def write_notes(notes: dict[str, Any]) -> None:
    path = notes_path()
    if path is None:
        return
    with contextlib.suppress(OSError), open(path, "w") as f:
        json.dump(notes, f)


def neighbours4(p: Tile) -> list[Tile]:
    x, y = p
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def neighbours8(p: Tile) -> list[Tile]:
    x, y = p
    return [(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j]


def groups(tiles: set[Tile], near: Any) -> list[set[Tile]]:
    """The connected groups of `tiles` under the neighbourhood `near`."""
    left = set(tiles)
    out: list[set[Tile]] = []
    while left:
        first = left.pop()
        group, todo = {first}, [first]
        while todo:
            for n in near(todo.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    todo.append(n)
        out.append(group)
    return out


def plan_line(tiles: list[dict[str, Any]], door: Tile, level: int) -> tuple[list[list[int]], str]:
    """The dams' tiles ([x, y, bed level]) of the cheapest straight line across the pool by the
    colony that cuts it off from its outflow and that builders can reach from land a path from
    the doorstep (at `level`) can reach, and a line saying what was found (no tiles when no line
    is worth building)."""
    grid = {(k["x"], k["y"]): k for k in tiles}
    wet = {p for p, k in grid.items() if k.get("water", 0.0) > WET}
    pool = river_pool(grid, wet, door)
    if not pool:
        return [], "no river within reach"
    z = grid[next(iter(pool))]["terrain"]
    rim = {
        p
        for p in pool
        if any(n not in grid or (n in wet and grid[n]["terrain"] < z) for n in neighbours4(p))
    }
    parts = groups(rim, neighbours8)

    def surface(group: set[Tile]) -> float:
        return sum(grid[p]["terrain"] + grid[p]["water"] for p in group) / len(group)

    if len(parts) < 2:
        return [], f"the river's pool ({len(pool)} tiles) has one way in or out; no dam"
    inflow = max(parts, key=surface)
    outflow = {p for g in parts if g is not inflow for p in g}
    land = reachable_land(grid, door, level)
    home = min(pool, key=lambda p: abs(p[0] - door[0]) + abs(p[1] - door[1]))
    best: tuple[int, int, list[Tile]] | None = None
    for run in cross_runs(pool):
        if len(run) > MAX_DAMS or home in run:
            continue
        if not all(grid.get(n, {"terrain": z + 1})["terrain"] > z for n in run_ends(run)):
            continue
        if path_end([[x, y, z] for x, y in run], land, level - z) is None:
            continue
        held = held_part(pool, set(run), home)
        if held & outflow or len(held) < MIN_HELD:
            continue
        key = (len(run), -len(held), run)
        if best is None or key < best:
            best = key
    if best is None:
        return [], f"no line of {MAX_DAMS} dams or fewer cuts the pool ({len(pool)} tiles) off"
    run = best[2]
    return [[x, y, z] for x, y in run], (
        f"{len(run)} dams hold {-best[1]} of the river pool's {len(pool)} tiles (level {z})"
    )


def path_end(line: list[list[int]], land: Iterable[Tile], rise: int) -> Tile | None:
    """The tile of `land` nearest the line's middle from which builders reach every dam."""
    mx, my = line[len(line) // 2][0], line[len(line) // 2][1]
    r = BUILDER_REACH - rise
    fits = [p for p in land if all(abs(p[0] - x) + abs(p[1] - y) <= r for x, y, _ in line)]
    return min(fits, key=lambda p: (abs(p[0] - mx) + abs(p[1] - my), p), default=None)


def river_pool(grid: dict[Tile, dict[str, Any]], wet: set[Tile], door: Tile) -> set[Tile]:
    """The largest stretch of wet tiles of one bed level coming within RIVER_REACH of the door."""
    best: set[Tile] = set()
    seen: set[Tile] = set()
    for p in sorted(wet, key=lambda q: abs(q[0] - door[0]) + abs(q[1] - door[1])):
        if abs(p[0] - door[0]) + abs(p[1] - door[1]) > RIVER_REACH:
            break
        if p in seen:
            continue
        z = grid[p]["terrain"]
        pool, todo = {p}, [p]
        while todo:
            for n in neighbours4(todo.pop()):
                if n in wet and n not in pool and grid[n]["terrain"] == z:
                    pool.add(n)
                    todo.append(n)
        seen |= pool
        if len(pool) > len(best):
            best = pool
    return best


def reachable_land(
    grid: dict[Tile, dict[str, Any]], door: Tile, level: int, crops: tuple[str, ...] = ()
) -> dict[Tile, Tile]:
    """Dry tiles at the doorstep's level, free of buildings and plants but paths and the
    `crops` (which a path may replace), joined to it over such tiles: where a path from the
    doorstep can go without stairs. Each maps to the tile it was reached from (the door to
    itself)."""

    def free(p: Tile) -> bool:
        k = grid.get(p)
        if k is None or k["terrain"] != level or k.get("water", 0.0) > WET:
            return False
        return all(o.get("name") in ("Path", *crops) for o in k.get("occupants") or [])

    came = {door: door}
    todo = [door]
    while todo:
        here = todo.pop(0)
        for n in neighbours4(here):
            if n not in came and free(n):
                came[n] = here
                todo.append(n)
    return came


def cross_runs(pool: set[Tile]) -> list[list[Tile]]:
    """Every maximal straight run of pool tiles, along a row or a column."""
    runs: list[list[Tile]] = []
    for axis in (0, 1):
        for p in pool:
            before = (p[0] - 1, p[1]) if axis == 0 else (p[0], p[1] - 1)
            if before in pool:
                continue
            run, q = [], p
            while q in pool:
                run.append(q)
                q = (q[0] + 1, q[1]) if axis == 0 else (q[0], q[1] + 1)
            runs.append(run)
    return runs


def run_ends(run: list[Tile]) -> list[Tile]:
    """The two tiles just past a straight run's ends."""
    (x0, y0), (x1, y1) = run[0], run[-1]
    if y0 == y1:
        return [(x0 - 1, y0), (x1 + 1, y1)]
    return [(x0, y0 - 1), (x1, y1 + 1)]


def held_part(pool: set[Tile], line: set[Tile], home: Tile) -> set[Tile]:
    """The pool tiles still joined to `home` once the line's tiles are walls."""
    held, todo = {home}, [home]
    while todo:
        for n in neighbours4(todo.pop()):
            if n in pool and n not in line and n not in held:
                held.add(n)
                todo.append(n)
    return held


def dam(t: Turn, from_day: int = 0) -> None:
    """A line of dams across the pool's outflow for each drought: planned on the first turn,
    placed in one go (first in the builders' queue) when a drought is DAM_LEAD days off or less
    and the logs in store cover the line, and taken down (three quarters of the logs back) on
    the first turn after it, before the returning river rises behind them over the land."""
    notes = read_notes()
    if notes.get("given_up"):
        return
    if "line" not in notes:
        notes = plan(t)
        if not notes["line"]:
            return
    line = notes["line"]
    standing = t.of(DAM)
    w = t.summary["weather"]
    if w.get("isHazardous"):
        return
    drought = t.hazard_kind() == "drought" and t.summary["time"]["dayNumber"] >= from_day
    soon = drought and t.days_to_hazard() <= DAM_LEAD
    if standing:
        if not soon:
            undo(t, standing)
            t.say(f"took down {len(standing)} dams: the drought is over")
        return
    if not drought or t.days_to_hazard() > DAM_SAVE:
        return
    cost = 20 * len(line)
    if not soon or t.logs() - t.reserved < cost:
        # The logs are kept for the dams from DAM_SAVE days before the drought.
        t.reserved += cost
        t.say(f"keeping logs for {len(line)} dams: {t.logs()} of {cost}")
        return
    placed = place_line(t, line)
    if placed is None:
        notes["tries"] = notes.get("tries", 0) + 1
        notes["given_up"] = notes["tries"] >= 3
        write_notes(notes)
        return
    t.stock["Log"] = t.logs() - cost
    t.say(f"placed {len(placed)} dams across the river's outflow for the drought: {notes['why']}")


def plan(t: Turn) -> dict[str, Any]:
    """The line, planned from the whole map's tiles and noted, and the path toward it laid."""
    door = (t.dc["entranceX"], t.dc["entranceY"])
    tiles = t.c.tiles(x1=0, y1=0, x2=t.map_w - 1, y2=t.map_h - 1)["tiles"]
    line, why = plan_line(tiles, door, t.dc["z"])
    notes: dict[str, Any] = {"line": line, "why": why}
    t.say(f"dams: {why}")
    if not line:
        notes["given_up"] = True
    write_notes(notes)
    return notes


def line_end(t: Turn, line: list[list[int]], tiles: list[dict[str, Any]]) -> Tile | None:
    """Where a path from the doorstep must end for builders to reach every dam of the line,
    with the crops on the way there taken down (a path cannot cross a crop)."""
    door = (t.dc["entranceX"], t.dc["entranceY"])
    grid = {(k["x"], k["y"]): k for k in tiles}
    came = reachable_land(grid, door, t.dc["z"], t.kit.crops)
    end = path_end(line, came, t.dc["z"] - line[0][2])
    if end is None:
        return None
    way, here = [], end
    while here != door:
        way.append(here)
        here = came[here]
    cropped = [
        p for p in way if any(o.get("name") in t.kit.crops for o in grid[p].get("occupants") or [])
    ]
    if cropped:
        clear_crops(t, set(cropped))
        t.say(f"took down {len(cropped)} crops for the path to the dams")
    return end


def clear_crops(t: Turn, tiles: set[Tile]) -> None:
    try:
        crops = t.c.crops(limit=0)
    except colony.ColonyError:
        return
    for k in crops:
        if (k["x"], k["y"]) in tiles:
            with contextlib.suppress(colony.ColonyError):
                t.c.crop_demolish(id=k["id"])


def place_line(t: Turn, line: list[list[int]]) -> list[dict[str, Any]] | None:
    """Every dam of the line, reached by builders, or none (the sites taken down again)."""
    prefab = t.name(DAM)
    placed: list[dict[str, Any]] = []
    for x, y, z in line:
        try:
            answer = t.c.building_place(prefab=prefab, x=x, y=y, z=z, orientation="south")
        except colony.ColonyError as e:
            t.say(f"no dam at ({x}, {y}, {z}): {e}")
            undo(t, placed)
            return None
        b = {"id": answer["id"], "name": prefab, "x": x, "y": y, "z": z, "finished": False}
        placed.append(b)
        t.buildings.append(b)
    if not reached(t, placed, line):
        t.say("builders reach no dam of the line; taken down")
        undo(t, placed)
        return None
    for b in placed:
        t.prioritize(b, workplace=False)
    return placed


def reached(t: Turn, placed: list[dict[str, Any]], line: list[list[int]]) -> bool:
    """Whether builders reach every dam of the line, after a path to the land by it if not."""
    if all(view(t, b["id"]).get("reachable") for b in placed):
        return True
    tiles = t.c.tiles(x1=0, y1=0, x2=t.map_w - 1, y2=t.map_h - 1)["tiles"]
    end = line_end(t, line, tiles)
    if end is None:
        return False
    t.connect({"entranceX": end[0], "entranceY": end[1]})
    return all(view(t, b["id"]).get("reachable") for b in placed)


def view(t: Turn, bid: int) -> dict[str, Any]:
    try:
        rows = t.c.buildings(id=bid, limit=0, detail="full")
    except colony.ColonyError:
        return {}
    return rows[0] if rows else {}


def undo(t: Turn, parts: list[dict[str, Any]]) -> None:
    for p in parts:
        with contextlib.suppress(colony.ColonyError):
            t.c.building_demolish(id=p["id"])
    ids = {p["id"] for p in parts}
    t.buildings = [b for b in t.buildings if b["id"] not in ids]
