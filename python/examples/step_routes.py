"""Where a ``Colony-v0`` step's time goes over HTTP: every request the environment makes, timed
in the client and summed by route, over a masked random agent's steps (after a warm-up reset).

    COLONYD=target/release/colonyd python python/examples/step_routes.py --steps 40
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

import numpy as np

import colony.gym  # noqa: F401
from colony.gym import ColonyEnv
from colony.gym._client import StepClient


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--map", default="64")
    ap.add_argument("--turn-hours", type=float, default=24)
    a = ap.parse_args()

    totals: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    request = StepClient._request

    def timed(
        self: StepClient,
        method: str,
        path: str,
        query: dict[str, Any] | None,
        data: dict[str, Any] | None,
    ) -> tuple[int, Any, str | None]:
        t = time.perf_counter()
        try:
            return request(self, method, path, query, data)
        finally:
            row = totals[f"{method} {path.split('?')[0]}"]
            row[0] += 1
            row[1] += time.perf_counter() - t

    StepClient._request = timed  # type: ignore[method-assign]
    env = ColonyEnv(map_size=a.map, turn_hours=a.turn_hours, backend="http")
    rng = np.random.default_rng(a.seed)
    _, info = env.reset(seed=a.seed)
    totals.clear()
    t0 = time.perf_counter()
    for _ in range(a.steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(1 << 30)))
    wall = time.perf_counter() - t0
    env.close()
    print(f"{a.steps} steps, {wall / a.steps * 1e3:.1f} ms a step")
    for route, (n, secs) in sorted(totals.items(), key=lambda kv: -kv[1][1]):
        print(
            f"  {route:34s} {n / a.steps:5.1f} a step {secs / a.steps * 1e3:8.2f} ms a step"
            f" {secs / n * 1e3:7.2f} ms each"
        )


if __name__ == "__main__":
    main()
