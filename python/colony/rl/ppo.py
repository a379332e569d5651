"""A single-file PPO baseline for ``Colony-v0`` (CleanRL style, PyTorch on the CPU).

    python -m colony.rl.ppo --total-steps 60000 --envs 8 --map 64 \\
        --checkpoint ppo-64.pt --curve docs/images/ppo-curve.csv

Trains on ``colony.gym.make_vector(envs, backend="engine", ...)`` with survive-60's reward (the
change of the score ``colony eval`` gives the game, here scaled to score points, 0-100 an
episode), 24-hour turns of up to 8 actions (the scenario's turn length: a ``colony eval`` turn is
the actions an agent takes before it replies, so ``agents/ppo.py`` plays the same turns).

The policy is fully convolutional, because the action space is one ``Discrete`` laid out over the
map (``colony.gym.actions.Layout``): a small CNN over the normalised map layers (plus each tile's
offset from the district center) with the colony vector added to its first layer's channels
gives ``4P + 1 + 1 + C`` logits per tile (place prefab ``p`` facing ``o``; path; cut; plant crop
``c``), reordered to the layout's flat order (``flat_logits``); the wait (action 0) gets one logit
from the pooled features, offset by the log of the number of allowed actions so that its share
does not depend on how many spots the mask allows; the value comes from the pooled features.
Logits where ``action_mask`` is 0 are set to -1e8 (``masked_logits``).

Gymnasium 1.x's vector autoreset (next step) makes the step after an episode's end a reset that
ignores its action: those samples are kept out of the loss and out of the advantages. The
horizon's truncation is an end like death: the score stops there, so there is nothing to
bootstrap.

The checkpoint (``torch.save`` of a dict: the weights and the game's settings) is what
``agents/ppo.py --checkpoint FILE`` plays under ``colony eval``. The curve is a CSV of every
finished episode (steps so far, score, day) and, when matplotlib is installed, a PNG beside it.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from ..gym.actions import Layout
from ..gym.observe import COLONY_FIELDS, ROLES
from ..gym.settings import GameSettings

#: Input channels built from the map layers (``map_features``).
MAP_CHANNELS = 23
#: A logit that the softmax gives no mass (masked actions).
MASKED = -1e8


@dataclass
class Config:
    """The game a policy plays and its width: saved in the checkpoint."""

    map_size: str = "64"
    turn_hours: float = 24.0
    horizon_days: float = 60.0
    actions_per_turn: int = 8
    prefabs: tuple[str, ...] = field(default_factory=tuple)
    crops: tuple[str, ...] = ("Carrot", "Potato")
    hidden: int = 16

    def settings(self) -> GameSettings:
        return GameSettings.of(
            self.map_size,
            turn_hours=self.turn_hours,
            horizon_days=self.horizon_days,
            prefabs=self.prefabs or None,
            crops=self.crops,
            actions_per_turn=self.actions_per_turn,
        )


def map_features(obs: Mapping[str, np.ndarray]) -> torch.Tensor:
    """The policy's map input, ``(B, MAP_CHANNELS, H, W)`` float32 from a batched observation:
    terrain / 16, water depth (clipped at 2 m) / 2, badwater, moisture, contamination, trees,
    crops and bushes / 3, grown trees, the eight building roles one-hot, paths / 2, doorsteps,
    sites, and each tile's offset from the district center (its tiles' mean; the map's middle
    when there is none) in map widths, with its distance."""
    t = {k: torch.as_tensor(np.asarray(v)) for k, v in obs.items() if k != "colony"}
    b = t["buildings"].long()
    _, h, w = b.shape
    roles = F.one_hot(b, len(ROLES) + 1)[..., 1:].permute(0, 3, 1, 2).float()
    dc = (b == 1).float()
    n = dc.sum((1, 2))
    ys = torch.arange(h, dtype=torch.float32)[None, :, None]
    xs = torch.arange(w, dtype=torch.float32)[None, None, :]
    cy = torch.where(n > 0, (dc * ys).sum((1, 2)) / n.clamp(min=1), torch.tensor(h / 2))
    cx = torch.where(n > 0, (dc * xs).sum((1, 2)) / n.clamp(min=1), torch.tensor(w / 2))
    dy = ((ys - cy[:, None, None]) / h).expand(-1, h, w)
    dx = ((xs - cx[:, None, None]) / w).expand(-1, h, w)
    layers = [
        t["terrain"].float() / 16,
        t["water"].float().clamp(0, 2) / 2,
        t["badwater"].float(),
        t["moisture"].float(),
        t["contaminated"].float(),
        t["trees"].float() / 3,
        t["crops"].float() / 3,
        t["bushes"].float() / 3,
        (t["trees"] == 2).float(),
        t["paths"].float() / 2,
        t["entrances"].float(),
        t["sites"].float(),
        dx,
        dy,
        torch.sqrt(dx * dx + dy * dy),
    ]
    x = torch.cat([torch.stack(layers[:10], 1), roles, torch.stack(layers[10:], 1)], 1)
    assert x.shape[1] == MAP_CHANNELS
    return x


def colony_features(colony: np.ndarray) -> torch.Tensor:
    """The colony vector, ``(B, 24)``, squashed to a few units: ``sign(v) log(1 + |v|) / 4``."""
    v = torch.as_tensor(np.asarray(colony, np.float32))
    return torch.sign(v) * torch.log1p(v.abs()) / 4


def flat_logits(tiles: torch.Tensor, wait: torch.Tensor, prefabs: int, crops: int) -> torch.Tensor:
    """Per-tile logits ``(B, 4P + 2 + C, H, W)`` and the wait's ``(B,)`` in the layout's flat
    order (``colony.gym.actions.Layout``): the wait; place ``p`` at ``(x, y)`` facing ``o`` (channel
    ``4p + o``) at ``1 + ((p H + y) W + x) 4 + o``; path (channel ``4P``), cut (``4P + 1``) and
    plant ``c`` (``4P + 2 + c``) as ``(y, x)`` planes."""
    b, ch, h, w = tiles.shape
    assert ch == 4 * prefabs + 2 + crops, (ch, prefabs, crops)
    place = tiles[:, : 4 * prefabs].reshape(b, prefabs, 4, h, w).permute(0, 1, 3, 4, 2)
    rest = tiles[:, 4 * prefabs :].reshape(b, -1)
    return torch.cat([wait.reshape(b, 1), place.reshape(b, -1), rest], 1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action the mask forbids set to ``MASKED``."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, MASKED))


class Policy(nn.Module):
    """The actor-critic: a small fully convolutional network (see the module's doc)."""

    def __init__(self, prefabs: int, crops: int, hidden: int = 16) -> None:
        super().__init__()
        self.prefabs, self.crops = prefabs, crops
        h = hidden
        self.inp = nn.Conv2d(MAP_CHANNELS, h, 3, padding=1)
        self.colony = nn.Linear(len(COLONY_FIELDS), h)
        # Dilated residual layers: each tile sees about 31 tiles across.
        self.convs = nn.ModuleList(nn.Conv2d(h, h, 3, padding=d, dilation=d) for d in (2, 4, 8))
        self.pooled = nn.Sequential(nn.Linear(2 * h + h, 64), nn.ReLU())
        self.broadcast = nn.Linear(64, h)
        self.head = nn.Conv2d(2 * h, 4 * prefabs + 2 + crops, 1)
        self.wait = nn.Linear(64, 1)
        self.value = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
        # CleanRL's initial scales: a near-uniform policy, a value head of unit scale.
        nn.init.normal_(self.head.weight, std=0.01)
        nn.init.zeros_(self.head.bias)
        nn.init.normal_(self.wait.weight, std=0.01)
        nn.init.zeros_(self.wait.bias)

    def forward(
        self, maps: torch.Tensor, colony: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits ``(B, actions)`` and values ``(B,)``."""
        c = self.colony(colony)
        x = F.relu(self.inp(maps) + c[:, :, None, None])
        for conv in self.convs:
            x = x + F.relu(conv(x))
        g = self.pooled(torch.cat([x.mean((2, 3)), x.amax((2, 3)), c], 1))
        local = torch.cat([x, self.broadcast(g)[:, :, None, None].expand_as(x)], 1)
        tiles = self.head(local)
        allowed = mask[:, 1:].sum(1).clamp(min=1).float()
        wait = self.wait(g).squeeze(1) + torch.log(allowed)
        logits = flat_logits(tiles, wait, self.prefabs, self.crops)
        return masked_logits(logits, mask), self.value(g).squeeze(1)


def make_policy(cfg: Config) -> Policy:
    s = cfg.settings()
    return Policy(len(s.prefabs), len(s.crops), cfg.hidden)


def save_checkpoint(path: str | Path, policy: Policy, cfg: Config, steps: int) -> None:
    """Writes the weights with the game's settings, the prefab list resolved (a checkpoint keeps
    the action layout it was trained on when the environment's default list changes)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    cfg = replace(cfg, prefabs=tuple(cfg.settings().prefabs))
    torch.save({"config": asdict(cfg), "state": policy.state_dict(), "steps": steps}, path)


def load_checkpoint(path: str | Path) -> tuple[Policy, Config]:
    """The policy (in eval mode) and its game settings from a ``save_checkpoint`` file."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    raw = dict(data["config"])
    raw["prefabs"], raw["crops"] = tuple(raw["prefabs"]), tuple(raw["crops"])
    cfg = Config(**raw)
    policy = make_policy(cfg)
    policy.load_state_dict(data["state"])
    policy.eval()
    return policy, cfg


def choose(
    policy: Policy,
    obs: Mapping[str, np.ndarray],
    mask: np.ndarray,
    greedy: bool = False,
    generator: torch.Generator | None = None,
) -> int:
    """One action for one (unbatched) observation and mask."""
    batched = {k: np.asarray(v)[None] for k, v in obs.items()}
    with torch.no_grad():
        logits, _ = policy(
            map_features(batched),
            colony_features(batched["colony"]),
            torch.as_tensor(np.asarray(mask)[None] != 0),
        )
    if greedy:
        return int(logits.argmax(1).item())
    return int(sample(logits, generator).item())


def sample(logits: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row, drawn from ``softmax(logits)`` (the Gumbel-max trick: ten times
    faster than ``Categorical.sample`` over 131,073 actions)."""
    u = torch.rand(logits.shape, generator=generator).clamp_(1e-12, 1.0)
    return (logits - torch.log(-torch.log(u))).argmax(1)


# Training ------------------------------------------------------------------------------------


@dataclass
class Args:
    total_steps: int = 60_000
    envs: int = 8
    rollout: int = 32
    seed: int = 100_000
    lr: float = 5e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    epochs: int = 1
    minibatch: int = 32
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    threads: int = 0
    #: PyTorch's threads (1: measured 2-10x faster than 2 on a busy 2-core machine; 0 leaves
    #: PyTorch's default).
    torch_threads: int = 1
    checkpoint: str = "ppo.pt"
    curve: str = "ppo-curve.csv"
    config: Config = field(default_factory=Config)


def train(args: Args, log: Any = print) -> dict[str, Any]:
    """Runs PPO; returns ``{episodes: [(step, score, day)], steps, seconds, updates}``."""
    import colony.gym as cg

    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed % 2**32)
    cfg = args.config
    s = cfg.settings()
    envs = cg.make_vector(
        args.envs,
        backend="engine",
        threads=args.threads,
        map_size=cfg.map_size,
        turn_hours=cfg.turn_hours,
        horizon_days=cfg.horizon_days,
        actions_per_turn=cfg.actions_per_turn,
        prefabs=list(s.prefabs),
        crops=list(s.crops),
    )
    layout = Layout(s.width, s.height, len(s.prefabs), len(s.crops))
    policy = make_policy(cfg)
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr, eps=1e-5)
    n, t_len, acts = args.envs, args.rollout, layout.n
    maps = torch.zeros((t_len, n, MAP_CHANNELS, s.height, s.width))
    cols = torch.zeros((t_len, n, len(COLONY_FIELDS)))
    masks = torch.zeros((t_len, n, acts), dtype=torch.bool)
    actions = torch.zeros((t_len, n), dtype=torch.long)
    logps = torch.zeros((t_len, n))
    values = torch.zeros((t_len, n))
    rewards = torch.zeros((t_len, n))
    dones = torch.zeros((t_len, n))
    valid = torch.zeros((t_len, n), dtype=torch.bool)

    obs, info = envs.reset(seed=args.seed)
    mask = info["action_mask"]
    autoreset = np.zeros(n, bool)
    episodes: list[tuple[int, float, int]] = []
    rows: list[dict[str, float]] = []
    step, start = 0, time.perf_counter()
    updates = max(1, math.ceil(args.total_steps / (n * t_len)))
    try:
        for update in range(updates):
            for g in opt.param_groups:
                g["lr"] = args.lr * (1 - update / updates)
            waits = 0
            for t in range(t_len):
                maps[t] = map_features(obs)
                cols[t] = colony_features(obs["colony"])
                masks[t] = torch.as_tensor(mask != 0)
                with torch.no_grad():
                    logits, v = policy(maps[t], cols[t], masks[t])
                    a = sample(logits)
                actions[t], values[t] = a, v
                logps[t] = torch.log_softmax(logits, 1).gather(1, a[:, None]).squeeze(1)
                obs, r, term, trunc, info = envs.step(a.numpy())
                done = np.logical_or(term, trunc)
                valid[t] = torch.as_tensor(~autoreset)
                rewards[t] = torch.as_tensor(100 * np.asarray(r, np.float32))
                dones[t] = torch.as_tensor(done.astype(np.float32))
                waits += int(((a == 0) & valid[t]).sum())
                step += int((~autoreset).sum())
                for i in np.flatnonzero(done & ~autoreset):
                    episodes.append((step, float(info["score"][i]), int(info["day"][i])))
                autoreset = done
                mask = info["action_mask"]
            with torch.no_grad():
                _, next_v = policy(
                    map_features(obs),
                    colony_features(obs["colony"]),
                    torch.as_tensor(mask != 0),
                )
            adv = torch.zeros((t_len, n))
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nv = next_v if t == t_len - 1 else values[t + 1]
                keep = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * nv * keep - values[t]
                last = delta + args.gamma * args.gae_lambda * keep * last
                adv[t] = last
            returns = adv + values
            idx = torch.nonzero(valid.reshape(-1)).squeeze(1)
            b_maps = maps.reshape(-1, *maps.shape[2:])
            b_cols, b_masks = cols.reshape(-1, cols.shape[2]), masks.reshape(-1, acts)
            b_act, b_logp = actions.reshape(-1), logps.reshape(-1)
            b_adv, b_ret = adv.reshape(-1), returns.reshape(-1)
            stats: dict[str, list[float]] = {k: [] for k in ("pg", "vf", "ent", "kl")}
            for _ in range(args.epochs):
                perm = idx[torch.randperm(idx.numel())]
                for lo in range(0, perm.numel(), args.minibatch):
                    mb = perm[lo : lo + args.minibatch]
                    if mb.numel() < 2:
                        continue
                    logits, v = policy(b_maps[mb], b_cols[mb], b_masks[mb])
                    logp_all = torch.log_softmax(logits, 1)
                    logp = logp_all.gather(1, b_act[mb, None]).squeeze(1)
                    ratio = torch.exp(logp - b_logp[mb])
                    a_mb = b_adv[mb]
                    a_mb = (a_mb - a_mb.mean()) / (a_mb.std() + 1e-8)
                    pg = torch.max(
                        -a_mb * ratio, -a_mb * ratio.clamp(1 - args.clip, 1 + args.clip)
                    ).mean()
                    vf = 0.5 * ((v - b_ret[mb]) ** 2).mean()
                    ent = -(logp_all.exp() * logp_all).sum(1).mean()
                    loss = pg + args.vf_coef * vf - args.ent_coef * ent
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
                    opt.step()
                    with torch.no_grad():
                        kl = ((ratio - 1) - torch.log(ratio)).mean()
                    for k, val in (("pg", pg), ("vf", vf), ("ent", ent), ("kl", kl)):
                        stats[k].append(float(val.detach()))
            recent = [e[1] for e in episodes[-50:]]
            row = {
                "update": update + 1,
                "steps": step,
                "seconds": round(time.perf_counter() - start, 1),
                "episodes": len(episodes),
                "score_last50": round(float(np.mean(recent)), 3) if recent else float("nan"),
                "wait_share": round(waits / max(1, int(valid.sum())), 3),
                **{k: round(float(np.mean(v)), 5) if v else float("nan") for k, v in stats.items()},
            }
            rows.append(row)
            log(
                " ".join(f"{k}={v}" for k, v in row.items())
                + f" steps/s={step / max(1e-9, row['seconds']):.1f}"
            )
            if (update + 1) % 10 == 0 or update + 1 == updates:
                save_checkpoint(args.checkpoint, policy, cfg, step)
                write_curve(args.curve, episodes, rows)
    finally:
        envs.close()
    seconds = time.perf_counter() - start
    return {"episodes": episodes, "steps": step, "seconds": seconds, "updates": rows}


def write_curve(
    path: str | Path,
    episodes: Sequence[tuple[int, float, int]],
    updates: Sequence[Mapping[str, float]] = (),
    title: str = "PPO on Colony-v0 (survive-60 reward, 64 map)",
    baselines: Mapping[str, float] | None = None,
) -> Path | None:
    """Writes the finished episodes as ``path`` (CSV: steps, score, day), the updates' statistics
    beside it (``*-updates.csv``), and, when matplotlib is installed, the curve as a PNG of the
    same name (returned)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["steps", "score", "day"])
        w.writerows(episodes)
    if updates:
        with p.with_name(p.stem + "-updates.csv").open("w", newline="") as f:
            d = csv.DictWriter(f, fieldnames=list(updates[0]))
            d.writeheader()
            d.writerows(updates)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    png = p.with_suffix(".png")
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    if episodes:
        xs = np.array([e[0] for e in episodes])
        ys = np.array([e[1] for e in episodes])
        ax.plot(xs, ys, ".", ms=2, alpha=0.3, color="tab:blue", label="episode score")
        k = min(50, len(ys))
        smooth = np.convolve(ys, np.ones(k) / k, mode="valid")
        ax.plot(xs[k - 1 :], smooth, color="tab:blue", lw=2, label=f"mean of {k} episodes")
    for i, (name, value) in enumerate((baselines or {}).items()):
        ax.axhline(value, ls="--", lw=1, color=f"C{i + 1}", label=name)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("score (0-100)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
    return png


def main(argv: Sequence[str] | None = None) -> None:
    d = Args()
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    ap.add_argument("--total-steps", type=int, default=d.total_steps)
    ap.add_argument("--envs", type=int, default=d.envs)
    ap.add_argument("--rollout", type=int, default=d.rollout, help="steps per env per update")
    ap.add_argument("--seed", type=int, default=d.seed, help="first training seed (env i: +i)")
    ap.add_argument("--lr", type=float, default=d.lr)
    ap.add_argument("--epochs", type=int, default=d.epochs)
    ap.add_argument("--minibatch", type=int, default=d.minibatch)
    ap.add_argument("--ent-coef", type=float, default=d.ent_coef)
    ap.add_argument("--map", default="64", help="map side or WxH")
    ap.add_argument("--hidden", type=int, default=16, help="channels of the CNN")
    ap.add_argument("--threads", type=int, default=0, help="engine threads (0: one per core)")
    ap.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="PyTorch's threads (0: its default)",
    )
    ap.add_argument("--checkpoint", default=d.checkpoint)
    ap.add_argument("--curve", default=d.curve, help="CSV of the episodes; the PNG beside it")
    a = ap.parse_args(argv)
    args = Args(
        total_steps=a.total_steps,
        envs=a.envs,
        rollout=a.rollout,
        seed=a.seed,
        lr=a.lr,
        epochs=a.epochs,
        minibatch=a.minibatch,
        ent_coef=a.ent_coef,
        threads=a.threads,
        torch_threads=a.torch_threads,
        checkpoint=a.checkpoint,
        curve=a.curve,
        config=Config(map_size=str(a.map), hidden=a.hidden),
    )
    out = train(args)
    scores = [e[1] for e in out["episodes"]]
    print(
        f"{out['steps']} steps in {out['seconds']:.0f} s ({out['steps'] / out['seconds']:.1f}/s), "
        f"{len(scores)} episodes, mean score {np.mean(scores) if scores else float('nan'):.2f}; "
        f"checkpoint {args.checkpoint}, curve {args.curve}"
    )


if __name__ == "__main__":
    main()
