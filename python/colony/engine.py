"""``colony.engine``: the game in this process, without colonyd (the ``colony_engine`` extension
module, ``pip install ./crates/py``; Rust and maturin build it).

``World(seed, faction="Folktails", mode="Normal", width=64, height=64)`` is one game: the
commands the HTTP routes carry (``place``, ``path``, ``demolish``, ``cutting_area``,
``planting_mark``, ``pause``, ``workers``, ``priority``, ``unlock``) with the same validation,
refusals raised as :class:`colony.ColonyError` with the same codes; ``advance(hours)`` (the GIL
released); ``save()`` / ``World.load(bytes)`` in colonyd's save format (``POST /api/game/load``
takes it); ``state_hash()`` as ``GET /api/game/hash``; ``placement_mask(prefab)`` as
``POST /api/placement/mask``; ``observe()`` the ``Colony-v0`` observation; ``score(terms,
horizon_days)`` as ``POST /api/score``. ``Env`` and ``VecEnv`` are ``Colony-v0`` in Rust; use them
through ``colony.gym`` (``backend="engine"``).
"""

from __future__ import annotations

try:
    from colony_engine import (
        CODE_LAYERS,
        COLONY_FIELDS,
        ROLES,
        RULES_DIGEST,
        Env,
        VecEnv,
        World,
    )
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "colony.engine needs the colony_engine extension module: pip install ./crates/py "
        "(from the repository; it needs Rust, and pip fetches maturin to build it)"
    ) from e

__all__ = ["CODE_LAYERS", "COLONY_FIELDS", "ROLES", "RULES_DIGEST", "Env", "VecEnv", "World"]
