"""Gymnasium environments of Colony: ``Colony-v0`` (registered on import) and a vector
environment over several colonyd processes. Needs ``pip install colony[gym]``."""

from gymnasium.envs.registration import register, registry

from .actions import sample_masked
from .env import ColonyEnv, make_vector
from .reward import ScoreTerm

if "Colony-v0" not in registry:
    register(id="Colony-v0", entry_point="colony.gym.env:ColonyEnv")

__all__ = ["ColonyEnv", "ScoreTerm", "make_vector", "sample_masked"]
