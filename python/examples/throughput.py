"""Steps per second of ``Colony-v0`` with a masked random agent: the HTTP backend (one colonyd
per process), the in-process engine, the engine's vector environment on a thread pool, and
Crafter's random agent when ``crafter`` is installed; with the reset time and the memory a world
takes. Prints a Markdown table (docs/python.md, "Throughput").

    COLONYD=target/release/colonyd python python/examples/throughput.py
    python python/examples/throughput.py --backends engine --vector 1,2,4,8,16 --steps 2000

A step: pick a random action among those the mask allows (``colony.gym.sample_masked``;
``--list-mask`` lists them with ``np.flatnonzero`` instead), then ``step`` (the action and
``--turn-hours`` of game time). ``--procs N`` runs the single-environment rows in N processes at
once (total steps per second over all of them). Resets after the first take no seed, as training
loops call them (the environment then has each next game made ahead); ``--seed-every-reset``
gives each a new seed of its own (a map never played before, generated on the spot).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import time
from typing import Any

import numpy as np


def rss_mb() -> float:
    """This process's resident memory (Linux), MB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def pick(mask: np.ndarray, rng: np.random.Generator, listing: bool) -> int:
    """A uniform pick among the allowed actions: ``sample_masked`` (rejection, then a list), or
    with ``listing`` the allowed actions listed every step (``np.flatnonzero``, the agent's own
    cost about a quarter of a millisecond on a 64 map)."""
    if listing:
        return int(rng.choice(np.flatnonzero(mask)))
    from colony.gym import sample_masked

    return sample_masked(mask, rng)


def single(
    backend: str,
    seed: int,
    steps: int,
    kw: dict[str, Any],
    start: Any,
    listing: bool = False,
    seeded: bool = False,
) -> tuple[int, float, float]:
    """One environment's run: (steps, seconds, mean reset ms)."""
    from colony.gym import ColonyEnv

    env = ColonyEnv(backend=backend, **kw)
    rng = np.random.default_rng(seed)
    resets = []
    t = time.perf_counter()
    obs, info = env.reset(seed=seed)
    resets.append(time.perf_counter() - t)
    if start is not None:
        start.wait()
    t = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, truncated, info = env.step(pick(info["action_mask"], rng, listing))
        if terminated or truncated:
            r = time.perf_counter()
            obs, info = env.reset(seed=int(rng.integers(1 << 30))) if seeded else env.reset()
            resets.append(time.perf_counter() - r)
    wall = time.perf_counter() - t
    env.close()
    return steps, wall, 1000 * float(np.mean(resets))


def single_row(
    backend: str, procs: int, steps: int, kw: dict[str, Any], listing: bool, seeded: bool
) -> tuple[float, float]:
    """Steps per second over ``procs`` processes, and the reset ms."""
    if procs == 1:
        n, wall, reset = single(backend, 1, steps, kw, None, listing, seeded)
        return n / wall, reset
    with mp.Manager() as m:
        barrier = m.Barrier(procs)
        with mp.Pool(procs) as pool:
            res = pool.starmap(
                single,
                [(backend, i + 1, steps, kw, barrier, listing, seeded) for i in range(procs)],
            )
    return sum(r[0] for r in res) / max(r[1] for r in res), float(np.mean([r[2] for r in res]))


def vector_row(n: int, steps: int, kw: dict[str, Any], listing: bool) -> float:
    """Environment steps per second of ``make_vector(n, backend="engine")``."""
    from colony.gym import make_vector

    venv = make_vector(n, backend="engine", threads=n, **kw)
    rng = np.random.default_rng(n)
    obs, info = venv.reset(seed=1)
    rounds = max(1, steps // n)
    t = time.perf_counter()
    for _ in range(rounds):
        actions = np.array([pick(m, rng, listing) for m in info["action_mask"]])
        obs, _, _, _, info = venv.step(actions)
    wall = time.perf_counter() - t
    venv.close()
    return rounds * n / wall


def memory_per_world(kw: dict[str, Any], worlds: int = 16) -> float:
    """MB one more engine world takes (``worlds`` environments made and reset)."""
    from colony.gym import ColonyEnv

    before = rss_mb()
    envs = [ColonyEnv(backend="engine", **kw) for _ in range(worlds)]
    for i, e in enumerate(envs):
        e.reset(seed=i + 1)
    per = (rss_mb() - before) / worlds
    for e in envs:
        e.close()
    return per


def crafter_row(procs: int, steps: int) -> float | None:
    try:
        import crafter  # noqa: F401
    except ImportError:
        return None
    if procs == 1:
        return crafter_run(1, steps, None)
    with mp.Manager() as m:
        barrier = m.Barrier(procs)
        with mp.Pool(procs) as pool:
            res = pool.starmap(crafter_run, [(i + 1, steps, barrier) for i in range(procs)])
    return sum(res)


def crafter_run(seed: int, steps: int, start: Any) -> float:
    import crafter

    env = crafter.Env(seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    if start is not None:
        start.wait()
    t = time.perf_counter()
    for _ in range(steps):
        _, _, done, _ = env.step(int(rng.integers(env.action_space.n)))
        if done:
            env.reset()
    return steps / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--backends", default="http,engine", help="single-environment rows")
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--steps", type=int, default=1000, help="steps per row (per process)")
    ap.add_argument("--http-steps", type=int, default=100, help="steps of the HTTP row")
    ap.add_argument("--vector", default="", help="vector sizes, e.g. 1,2,4 (threads = size)")
    ap.add_argument("--map", default="64")
    ap.add_argument("--turn-hours", type=float, default=1)
    ap.add_argument("--no-crafter", action="store_true")
    ap.add_argument(
        "--list-mask",
        action="store_true",
        help="the agent lists the allowed actions every step (np.flatnonzero) instead of "
        "colony.gym.sample_masked",
    )
    ap.add_argument(
        "--seed-every-reset",
        action="store_true",
        help="each reset a new seed of its own, generated on the spot (by default only the "
        "first reset takes a seed, as training loops call it)",
    )
    a = ap.parse_args()
    # Every action advances the game (the benchmark's "one-hour turns"), and no path is laid
    # for the placed buildings: a step is one action and one turn, as before the wait.
    kw = {"map_size": a.map, "turn_hours": a.turn_hours, "actions_per_turn": 1, "join_paths": False}
    picker = "np.flatnonzero" if a.list_mask else "sample_masked"
    print(
        f"map {a.map}, {a.turn_hours:g}-hour turns, masked random agent ({picker}), "
        f"{os.cpu_count()} cores, "
        + ("every reset a new seed" if a.seed_every_reset else "resets unseeded after the first")
    )
    print()
    print("| environment | processes | steps/s | reset ms |")
    print("|---|---|---|---|")
    for b in [x for x in a.backends.split(",") if x]:
        steps = a.http_steps if b == "http" else a.steps
        rate, reset = single_row(b, a.procs, steps, kw, a.list_mask, a.seed_every_reset)
        print(f"| `Colony-v0`, backend `{b}` | {a.procs} | {rate:.1f} | {reset:.1f} |")
    for n in [int(x) for x in a.vector.split(",") if x]:
        rate = vector_row(n, a.steps * n, kw, a.list_mask)
        print(f'| `make_vector({n}, backend="engine")`, {n} threads | 1 | {rate:.1f} | |')
    if not a.no_crafter:
        rate = crafter_row(a.procs, a.steps)
        if rate is None:
            print("| Crafter, random agent | - | (pip install crafter to measure) | |")
        else:
            print(f"| Crafter 1.8.3, random agent | {a.procs} | {rate:.1f} | |")
    if "engine" in a.backends:
        print()
        print(f"Memory per engine world: {memory_per_world(kw):.1f} MB")


if __name__ == "__main__":
    main()
