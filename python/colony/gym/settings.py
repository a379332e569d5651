"""The settings of a ``Colony-v0`` game, shared by its backends (``http_game.py``,
``engine_game.py``) and the engine's vector environment (``vector.py``): built once from
``ColonyEnv``'s arguments (``GameSettings.of``), with the prefab names made full and the default
score terms filled in. ``colony_engine.Env`` and ``VecEnv`` read it as it is (its attributes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .reward import ScoreTerm, survive_terms

#: The buildings an agent may place by default: each faction's starting set, with the stores a
#: colony needs from day 1 (the district center takes no deliveries: without a pile the
#: lumberjacks' logs, and without a warehouse the berries and crops, stay where they were made).
DEFAULT_PREFABS = {
    "Folktails": (
        "WaterPump",
        "SmallTank",
        "Lodge",
        "GathererFlag",
        "LumberjackFlag",
        "EfficientFarmHouse",
        "SmallWarehouse",
        "LargePile",
    ),
    "IronTeeth": (
        "DeepWaterPump",
        "SmallTank",
        "Barrack",
        "GathererFlag",
        "LumberjackFlag",
        "FarmHouse",
        "BreedingPod",
        "SmallWarehouse",
        "LargeIndustrialPile",
    ),
}


def map_side(size: int | str) -> tuple[int, int]:
    """``64`` or ``"64x48"`` as (width, height)."""
    text = str(size).lower()
    if "x" in text:
        w, h = text.split("x", 1)
        return int(w), int(h)
    return int(text), int(text)


@dataclass(frozen=True)
class GameSettings:
    """One game's settings (``ColonyEnv``'s arguments, docs/python.md)."""

    width: int
    height: int
    faction: str
    mode: str
    turn_hours: float
    horizon_days: float
    prefabs: tuple[str, ...]
    crops: tuple[str, ...]
    area: int
    terms: tuple[ScoreTerm, ...]
    actions_per_turn: int
    join_paths: bool

    @classmethod
    def of(
        cls,
        map_size: int | str = 128,
        faction: str = "Folktails",
        mode: str = "Normal",
        turn_hours: float = 12.0,
        horizon_days: float = 60.0,
        prefabs: Sequence[str] | None = None,
        crops: Sequence[str] = ("Carrot", "Potato"),
        area: int = 6,
        score_terms: Sequence[ScoreTerm] | None = None,
        actions_per_turn: int = 8,
        join_paths: bool = True,
    ) -> GameSettings:
        width, height = map_side(map_size)
        base = prefabs if prefabs is not None else DEFAULT_PREFABS.get(faction, ())
        names = tuple(p if "." in p or p == "Path" else f"{p}.{faction}" for p in base)
        return cls(
            width=width,
            height=height,
            faction=faction,
            mode=mode,
            turn_hours=float(turn_hours),
            horizon_days=float(horizon_days),
            prefabs=names,
            crops=tuple(crops),
            area=int(area),
            terms=tuple(score_terms or survive_terms(float(horizon_days))),
            actions_per_turn=int(actions_per_turn),
            join_paths=bool(join_paths),
        )
