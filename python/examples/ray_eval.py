"""Distributed evaluation with Ray: one Ray task per episode, each running ``colony eval`` for its
scenario and seed (which starts its own colonyd on free ports of the machine the task runs on),
gathered into one ``results.json`` of the same shape as ``colony eval`` writes
(docs/evaluation.md): per episode, per scenario (mean score, standard error, success rate, mean
days survived, achievement rates) and overall (the Crafter score over every achievement).

On this machine (``ray.init()`` starts a local Ray):

    python examples/ray_eval.py --scenario survive-60 --seeds 1..10 \
        --agent 'python3 agents/random_agent.py' --out ray-results

On a cluster (``ray start --head`` on one machine, ``ray start --address HEAD:6379`` on the
others, each with ``colony``, ``colonyd`` and the agent installed at the same paths):

    RAY_ADDRESS=HEAD:6379 python examples/ray_eval.py ...
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ray


def seeds_of(text: str) -> list[int]:
    """``1..10`` or ``1,2,5``."""
    out: list[int] = []
    for part in text.split(","):
        if ".." in part:
            a, b = part.split("..", 1)
            out += list(range(int(a), int(b) + 1))
        elif part.strip():
            out.append(int(part))
    return out


@ray.remote
def play_episode(
    scenario: str,
    seed: int,
    agent: str,
    colony_bin: str,
    colonyd: str | None,
    turn_hours: float | None,
    turn_timeout: float,
) -> dict[str, Any]:
    """One episode on whichever node runs the task; its results.json, read back."""
    out = Path(tempfile.mkdtemp(prefix="colony-ray-"))
    cmd = [colony_bin, "eval", "--scenario", scenario, "--seeds", str(seed), "--agent", agent]
    cmd += ["--out", str(out), "--quiet", "--turn-timeout", str(turn_timeout)]
    if colonyd:
        cmd += ["--colonyd", colonyd]
    if turn_hours:
        cmd += ["--turn-hours", str(turn_hours)]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"colony eval failed ({run.returncode}): {run.stderr[-2000:]}")
        return json.loads((out / "results.json").read_text())
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _round3(v: float) -> float:
    return round(v * 1000) / 1000


def mean_stderr(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return _round3(mean), 0.0
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return _round3(mean), _round3(math.sqrt(var / n))


def crafter_score(rates: list[float]) -> float:
    if not rates:
        return 0.0
    return _round3(math.exp(sum(math.log(1 + 100 * r) for r in rates) / len(rates)) - 1)


def merge(parts: list[dict[str, Any]], agent: str, wall: float) -> dict[str, Any]:
    """One results.json from the single-episode ones, aggregated as ``colony eval`` does."""
    episodes = [e for p in parts for e in p["episodes"]]
    titles: dict[str, str] = {}
    meta: dict[str, dict[str, Any]] = {}
    for p in parts:
        titles.update(p.get("achievementTitles", {}))
        for sid, s in p["scenarios"].items():
            meta.setdefault(sid, s)
    scenarios = {}
    for sid, s in sorted(meta.items()):
        eps = [e for e in episodes if e["scenario"] == sid]
        mean, err = mean_stderr([e["score"] for e in eps])
        scenarios[sid] = {
            "title": s["title"],
            "faction": s["faction"],
            "mode": s["mode"],
            "episodes": len(eps),
            "invalidEpisodes": sum(e["status"] == "invalid" for e in eps),
            "tamperedEpisodes": sum(e["status"] == "tampered" for e in eps),
            "meanScore": mean,
            "stderr": err,
            "successRate": _round3(sum(e["success"] for e in eps) / len(eps)),
            "meanDaysSurvived": _round3(sum(e["daysSurvived"] for e in eps) / len(eps)),
            "achievements": {
                a: _round3(sum(a in e["achievements"] for e in eps) / len(eps))
                for a in s["achievements"]
            },
        }
    n = max(len(episodes), 1)
    rates = {a: _round3(sum(a in e["achievements"] for e in episodes) / n) for a in titles}
    # Every part was made by the same colonyd and harness flags; the scenarios' digests and
    # seeds are the union of the parts'.
    first = parts[0] if parts else {}
    version = dict(first.get("version", {}))
    version["scenarios"] = {
        k: v for p in parts for k, v in p.get("version", {}).get("scenarios", {}).items()
    }
    seeds: dict[str, list[int]] = {}
    for p in parts:
        for sid, ss in p.get("seeds", {}).items():
            seeds[sid] = sorted(set(seeds.get(sid, [])) | set(ss))
    return {
        "agent": agent,
        "version": version,
        "split": "custom",
        "seeds": dict(sorted(seeds.items())),
        "harness": first.get("harness", {}),
        "score": crafter_score(list(rates.values())),
        "episodesPlayed": len(episodes),
        "invalidEpisodes": sum(e["status"] == "invalid" for e in episodes),
        "tamperedEpisodes": sum(e["status"] == "tampered" for e in episodes),
        "wallSeconds": _round3(wall),
        "achievements": rates,
        "achievementTitles": titles,
        "scenarios": scenarios,
        "episodes": sorted(episodes, key=lambda e: (e["scenario"], e["seed"])),
    }


def evaluate(
    scenarios: list[str],
    seeds: list[int],
    agent: str,
    out: Path,
    colony_bin: str,
    colonyd: str | None = None,
    turn_hours: float | None = None,
    turn_timeout: float = 120.0,
) -> dict[str, Any]:
    """Runs every (scenario, seed) as a Ray task and writes ``out/results.json``."""
    start = time.perf_counter()
    tasks = [
        play_episode.remote(s, seed, agent, colony_bin, colonyd, turn_hours, turn_timeout)
        for s in scenarios
        for seed in seeds
    ]
    results = merge(ray.get(tasks), agent, time.perf_counter() - start)
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "results.json.tmp"
    tmp.write_text(json.dumps(results, indent=2) + "\n")
    tmp.replace(out / "results.json")
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--scenario", required=True, help="ids or .toml files, comma-separated")
    ap.add_argument("--seeds", required=True, help="1..10 or 1,2,3")
    ap.add_argument("--agent", required=True, help="the agent command, as for colony eval")
    ap.add_argument("--out", type=Path, default=Path("ray-results"))
    ap.add_argument("--colony", default=os.environ.get("COLONY_BIN") or shutil.which("colony"))
    ap.add_argument("--colonyd", default=os.environ.get("COLONYD"))
    ap.add_argument("--turn-hours", type=float)
    ap.add_argument("--turn-timeout", type=float, default=120.0)
    a = ap.parse_args(argv)
    if not a.colony:
        ap.error("colony not found: pass --colony, set COLONY_BIN, or put it on PATH")
    if not ray.is_initialized():
        ray.init()
    res = evaluate(
        [s for s in a.scenario.split(",") if s],
        seeds_of(a.seeds),
        a.agent,
        a.out,
        os.path.abspath(a.colony),
        os.path.abspath(a.colonyd) if a.colonyd else None,
        a.turn_hours,
        a.turn_timeout,
    )
    for sid, s in res["scenarios"].items():
        print(f"{sid}: {s['meanScore']} ± {s['stderr']}, {100 * s['successRate']:.0f}% success")
    print(f"overall (Crafter score): {res['score']}; {a.out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
