#!/usr/bin/env python3
"""The trained PPO baseline as a `colony eval` agent: plays with a policy of `colony.rl.ppo`.

    colony eval --scenario scenarios/extra/survive-60-64.toml --agent-mode persistent \\
        --agent '.venv/bin/python -I agents/ppo.py --checkpoint ppo-64.pt --persistent'

Each turn it does what one turn of `Colony-v0` does (the environment the policy trained in): it
builds the observation and the mask the Gym HTTP backend builds (`colony.gym.observe.Observer`,
`colony.gym.actions.Actor`) against the episode's service, asks the policy for an action, and
carries it out through the same code (placing joins the path to the district center), up to the
checkpoint's actions per turn (8) or until the policy picks the wait (action 0); then the harness
advances the turn. Actions are sampled from the policy, seeded by the episode, turn and action
(`--greedy`: the most likely one instead), so a rerun plays the same game.

The policy plays the map size it trained on: use the scenario of that size
(`scenarios/extra/survive-60-64.toml` for the 64 map). Needs PyTorch and NumPy (`pip install
'./python[gym,rl]'`); uses the checkout's `python/` package (found beside this folder, so
`python3 -I` works). `--persistent` plays a whole episode in one process (`colony eval
--agent-mode persistent`: PyTorch loads once).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The checkout's package first: `colony.rl` is newer than an installed `colony` may be.
if (HERE.parent / "python" / "colony").is_dir():
    sys.path.insert(0, str(HERE.parent / "python"))

from colony.errors import ColonyError  # noqa: E402
from colony.gym._client import StepClient  # noqa: E402
from colony.gym.actions import Actor, Layout  # noqa: E402
from colony.gym.observe import Observer  # noqa: E402


def checkpoint_path(given: str) -> Path:
    """The checkpoint as given, else relative to the folder `colony eval` was started in (the
    agent runs in its notes folder)."""
    p = Path(given)
    if p.is_absolute() or p.exists():
        return p
    launch = os.environ.get("COLONY_EVAL_LAUNCH_DIR")
    return Path(launch) / p if launch else p


class Player:
    """The policy and one episode's readers: plays turns."""

    def __init__(self, checkpoint: Path, greedy: bool) -> None:
        try:
            import torch
        except ImportError:
            sys.exit("agents/ppo.py needs PyTorch: pip install './python[gym,rl]'")
        from colony.rl import ppo

        self.torch, self.ppo = torch, ppo
        torch.set_num_threads(1)
        self.policy, self.cfg = ppo.load_checkpoint(checkpoint)
        s = self.settings = self.cfg.settings()
        self.layout = Layout(s.width, s.height, len(s.prefabs), len(s.crops))
        self.greedy = greedy
        host = os.environ.get("COLONY_HOST", "127.0.0.1")
        port = int(os.environ.get("COLONY_PORT", "8085"))
        self.client = StepClient(host, port, os.environ.get("COLONY_TOKEN") or None)
        self.observer = Observer(self.client, s.width, s.height)
        self.actor = Actor(
            self.client, self.layout, list(s.prefabs), list(s.crops), s.area, s.join_paths
        )

    def turn(self, episode: str, turn: int) -> list[str]:
        """Plays one turn; returns a line per action."""
        lines = []
        for i in range(self.settings.actions_per_turn):
            obs = self.observer.observe()
            shape = obs["terrain"].shape
            if shape != (self.settings.height, self.settings.width):
                raise SystemExit(
                    f"the map is {shape[1]}x{shape[0]}; this policy plays "
                    f"{self.settings.width}x{self.settings.height} (use that scenario variant)"
                )
            mask = self.actor.mask(obs)
            gen = self.torch.Generator().manual_seed(zlib.crc32(f"{episode}:{turn}:{i}".encode()))
            a = self.ppo.choose(self.policy, obs, mask, self.greedy, gen)
            act = self.layout.decode(a)
            if a == 0:
                lines.append("wait")
                break
            try:
                self.actor.act(a, obs["terrain"], self.observer.dc_entrance())
                outcome = "ok"
            except ColonyError as e:
                outcome = f"refused: {e.code}"
            what = self.actor.prefabs[act.prefab] if act.kind == "place" else ""
            lines.append(f"{act.kind} {what} at {act.x},{act.y}: {outcome}".replace("  ", " "))
        return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", required=True, help="a colony.rl.ppo checkpoint (.pt)")
    ap.add_argument("--greedy", action="store_true", help="the most likely action, not a sample")
    ap.add_argument("--persistent", action="store_true", help="one process per episode")
    args = ap.parse_args()
    episode = os.environ.get("COLONY_EPISODE") or os.environ.get("COLONY_EPOCH", "")
    if not args.persistent:
        sys.stdin.read()
        player = Player(checkpoint_path(args.checkpoint), args.greedy)
        turn = int(os.environ.get("COLONY_TURN") or os.environ.get("COLONY_REQUEST_ID") or 0)
        print("\n".join(player.turn(episode, turn)))
        return
    player = None
    for line in sys.stdin:
        msg: dict[str, Any] = json.loads(line)
        if player is None:
            player = Player(checkpoint_path(args.checkpoint), args.greedy)
        turn = int(msg.get("turn", 0))
        for text in player.turn(str(msg.get("episode", episode)), turn):
            print(text, file=sys.stderr)
        print(json.dumps({"done": True, "turn": turn}), flush=True)


if __name__ == "__main__":
    main()
