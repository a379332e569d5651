"""A random agent on the Gymnasium environment: samples among the actions the mask allows.

python examples/random_gym_agent.py --episodes 2 --map 64 --seed 1
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import colony.gym  # noqa: F401  (registers Colony-v0)


def run(episodes: int, seed: int, **env_kwargs: object) -> list[dict[str, float]]:
    env = gym.make("Colony-v0", **env_kwargs)
    rng = np.random.default_rng(seed)
    results = []
    try:
        for ep in range(episodes):
            obs, info = env.reset(seed=seed + ep)
            total, steps, start, done = 0.0, 0, time.perf_counter(), False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                obs, reward, terminated, truncated, info = env.step(action)
                total += reward
                steps += 1
                done = terminated or truncated
            wall = time.perf_counter() - start
            results.append(
                {"return": total, "score": info["score"], "steps": steps, "day": info["day"]}
            )
            print(
                f"episode {ep}: score {info['score']:.1f}, {steps} steps, day {info['day']}, "
                f"{steps / wall:.1f} steps/s"
            )
    finally:
        env.close()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--episodes", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--map", default="64")
    ap.add_argument("--turn-hours", type=float, default=24)
    ap.add_argument("--horizon-days", type=float, default=60)
    a = ap.parse_args()
    run(a.episodes, a.seed, map_size=a.map, turn_hours=a.turn_hours, horizon_days=a.horizon_days)


if __name__ == "__main__":
    main()
