"""The reward of ``Colony-v0``: the change of a scenario score from one step to the next.

The score is the one ``colony eval`` gives (docs/evaluation.md, "Scores"): colonyd computes it over
its own game with the harness's code (``POST /api/score``, ``crates/score``), from the game's
hourly history and finished buildings, for the terms and horizon given here. So the rewards of an
episode add up to the score / 100 that ``colony eval`` gives the same game. The default terms are
``scenarios/survive-60.toml``'s, with the horizon as the days target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..client import Colony


@dataclass(frozen=True)
class ScoreTerm:
    """One term of the score, as a scenario's ``[[score]]`` has it: a metric (docs/evaluation.md,
    "Metrics") scaled against ``target`` to 0..1 (``1 - value / target`` when lower is better),
    counting ``weight``; a survival-scaled term counts for the share of the horizon the colony
    lived."""

    metric: str
    weight: float
    target: float
    lower_is_better: bool = False
    survival_scaled: bool = False

    def wire(self) -> dict[str, Any]:
        """The term as ``POST /api/score`` takes it."""
        return {
            "metric": self.metric,
            "weight": self.weight,
            "target": self.target,
            "lowerIsBetter": self.lower_is_better,
            "survivalScaled": self.survival_scaled,
        }


def survive_terms(horizon_days: float) -> list[ScoreTerm]:
    """``survive-60``'s terms (scenarios/survive-60.toml) with the days target set to the
    horizon."""
    return [
        ScoreTerm("days_survived", 4, horizon_days),
        ScoreTerm("beavers", 2, 30),
        ScoreTerm("wellbeing", 1, 8, survival_scaled=True),
        ScoreTerm("deaths_premature", 0.5, 12, lower_is_better=True, survival_scaled=True),
        ScoreTerm("buildings_built", 0.5, 20),
    ]


def score(client: Colony, terms: Sequence[ScoreTerm], horizon_days: float) -> dict[str, Any]:
    """The game's score so far: ``{score (0-100), terms: [{metric, value, points, ...}],
    success}`` (``POST /api/score``)."""
    answer: dict[str, Any] = client.score(
        horizon_days=horizon_days, terms=[t.wire() for t in terms]
    )
    return answer
