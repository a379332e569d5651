#!/usr/bin/env python3
"""Turns the shared content catalogue (../shared/game-data) into the project's own data files.

Each `{value, confidence, source|basis, note}` fact becomes its plain value. An estimated value
keeps its basis under the entry's `estimated` map (field -> basis) and a field's note goes under
`notes` (field -> note), so the data stay honest about what is a guess while the game reads plain
values. Names are kept exactly. Run from the repository root:

    python3 tools/import_game_data.py ../shared/game-data

It rewrites data/buildings.json, data/goods.json and data/needs.json (world.json and
nature.json are maintained by hand in their own format).
"""
import json
import os
import sys


def is_fact(v):
    return isinstance(v, dict) and "value" in v and "confidence" in v


def flatten(entry):
    out, estimated, notes = {}, {}, {}
    for key, val in entry.items():
        if is_fact(val):
            out[key] = val["value"]
            if val["confidence"] == "estimate":
                estimated[key] = val.get("basis", "estimate")
            if val.get("note"):
                notes[key] = val["note"]
        else:
            out[key] = val
    if estimated:
        out["estimated"] = estimated
    if notes:
        out["notes"] = notes
    return out


def drop_boilerplate_notes(entries):
    """Removes field notes repeated across many entries (they describe the catalogue, not the entry)."""
    from collections import Counter
    counts = Counter(n for e in entries for n in e.get("notes", {}).values())
    for e in entries:
        notes = {k: v for k, v in e.get("notes", {}).items() if counts[v] <= 20}
        if notes:
            e["notes"] = notes
        else:
            e.pop("notes", None)
    return entries


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def main(src):
    prefabs = json.load(open(os.path.join(src, "prefabs.json")))
    buildings = []
    for faction in ("Folktails", "IronTeeth"):
        buildings += [flatten(b) for b in prefabs["factions"][faction]]
    buildings += [flatten(b) for b in prefabs["common"]]
    drop_boilerplate_notes(buildings)
    for b in buildings:
        # Map-placed objects and developer tools are in the catalogue but not in a player's toolbar.
        if b.get("toolGroup") == "MapEditor/Other" or "not available in normal play" in (b.get("note") or ""):
            b["playerPlaceable"] = False
    recipes = []
    for rid, r in prefabs["recipes"].items():
        r = dict(r)
        conf = r.pop("confidence", "source")
        r.pop("source", None)
        basis = r.pop("basis", None)
        if conf == "estimate":
            r["estimated"] = basis or "estimate"
        recipes.append(r)
    write("data/buildings.json", {
        "_meta": {"from": "shared/game-data/prefabs.json via tools/import_game_data.py",
                  "convention": "plain values; `estimated` maps a field to the basis of its estimate; `notes` keeps field notes"},
        "buildings": buildings,
        "recipes": recipes,
        "factionEquivalents": prefabs["factionEquivalents"],
    })
    goods = json.load(open(os.path.join(src, "goods.json")))
    write("data/goods.json", {
        "_meta": {"from": "shared/game-data/goods.json via tools/import_game_data.py"},
        "goods": drop_boilerplate_notes([flatten(g) for g in goods["goods"]]),
    })
    needs = json.load(open(os.path.join(src, "needs.json")))
    mw = needs["maxWellbeingByGroup"]
    write("data/needs.json", {
        "_meta": {"from": "shared/game-data/needs.json via tools/import_game_data.py"},
        "groups": needs["groups"],
        "beaverNeeds": drop_boilerplate_notes([flatten(n) for n in needs["beaverNeeds"]]),
        "botNeeds": drop_boilerplate_notes([flatten(n) for n in needs["botNeeds"]]),
        "maxWellbeingByGroup": mw["value"] if is_fact(mw) else mw,
    })


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/game-data")
