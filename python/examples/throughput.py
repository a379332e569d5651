"""Steps per second of ``Colony-v0`` with a masked random agent, in 1 or more processes (each
with its own environment and colonyd), counted over whole runs after a warm-up reset.

    COLONYD=target/release/colonyd python python/examples/throughput.py --procs 1 --steps 200
    COLONYD=target/release/colonyd python python/examples/throughput.py --procs 4 --steps 200
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np


def worker(seed: int, steps: int, kwargs: dict[str, object], start: object) -> tuple[int, float]:
    import colony.gym  # noqa: F401
    from colony.gym import ColonyEnv

    env = ColonyEnv(**kwargs)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    start.wait()  # type: ignore[attr-defined]
    t = time.perf_counter()
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset(seed=int(rng.integers(1 << 30)))
    wall = time.perf_counter() - t
    env.close()
    return steps, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--steps", type=int, default=200, help="steps per process")
    ap.add_argument("--map", default="64")
    ap.add_argument("--turn-hours", type=float, default=24)
    ap.add_argument("--mask-regions", type=int, default=2)
    a = ap.parse_args()
    kwargs = {"map_size": a.map, "turn_hours": a.turn_hours, "mask_regions": a.mask_regions}
    with mp.Manager() as m:
        barrier = m.Barrier(a.procs)
        with mp.Pool(a.procs) as pool:
            res = pool.starmap(worker, [(i + 1, a.steps, kwargs, barrier) for i in range(a.procs)])
    total = sum(s for s, _ in res)
    wall = max(w for _, w in res)
    print(f"{a.procs} process(es): {total} steps in {wall:.2f} s = {total / wall:.1f} steps/s")


if __name__ == "__main__":
    main()
