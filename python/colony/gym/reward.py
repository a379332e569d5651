"""The reward of ``Colony-v0``: the change of a scenario score from one step to the next.

A score is the weighted mean of terms, each a metric of the colony's hourly history
(``GET /api/stats`` rows) scaled against a target, as ``colony eval`` scores scenarios
(docs/evaluation.md): ``min(value / target, 1)``, or ``max(1 - value / target, 0)`` when lower is
better. The default terms are ``survive-60``'s (days survived, beavers at the end, average
wellbeing, deaths) with the horizon as the days target, so the rewards of an episode add up to its
final score / 100. The metrics here are the ones those terms need, computed as the harness does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ScoreTerm:
    metric: str
    weight: float
    target: float
    lower_is_better: bool = False

    def fraction(self, value: float) -> float:
        if self.lower_is_better:
            return max(1.0 - value / self.target, 0.0)
        return min(value / self.target, 1.0)


def survive_terms(horizon_days: float) -> list[ScoreTerm]:
    """``survive-60``'s terms with the days target set to the horizon."""
    return [
        ScoreTerm("days_survived", 4, horizon_days),
        ScoreTerm("beavers", 2, 30),
        ScoreTerm("wellbeing", 1, 8),
        ScoreTerm("deaths", 1, 20, lower_is_better=True),
    ]


def _population(r: dict[str, Any]) -> int:
    return int(r.get("adults", 0)) + int(r.get("children", 0)) + int(r.get("bots", 0))


def _time_days(r: dict[str, Any]) -> float:
    return max(int(r.get("day", 1)) - 1, 0) + int(r.get("hour", 0)) / 24.0


class History:
    """The rows read so far and the metrics over them."""

    METRICS = ("days_survived", "alive", "population", "beavers", "wellbeing", "deaths", "births")

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._deaths = 0
        self._births = 0
        self._wellbeing_sum = 0.0
        self._alive_rows = 0

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        last = self.rows[-1]["ticks"] if self.rows else -1
        for r in rows:
            if r.get("ticks", 0) <= last:
                continue
            self.rows.append(r)
            last = r["ticks"]
            self._deaths += sum(int(n) for n in (r.get("deaths") or {}).values())
            self._births += int(r.get("births", 0))
            if _population(r) > 0:
                self._alive_rows += 1
                self._wellbeing_sum += float(r.get("wellbeing", 0.0))

    def game_over(self) -> bool:
        return bool(self.rows) and (
            bool(self.rows[-1].get("gameOver")) or _population(self.rows[-1]) == 0
        )

    def metric(self, name: str) -> float:
        rows = self.rows
        if not rows:
            return 0.0
        end = rows[-1]
        if name == "days_survived":
            start = max(_time_days(rows[0]) - 1 / 24, 0.0)
            stop = next((r for r in rows if _population(r) == 0 or r.get("gameOver")), end)
            return max(_time_days(stop) - start, 0.0)
        if name == "alive":
            return 1.0 if _population(end) > 0 else 0.0
        if name == "population":
            return float(_population(end))
        if name == "beavers":
            return float(int(end.get("adults", 0)) + int(end.get("children", 0)))
        if name == "wellbeing":
            return self._wellbeing_sum / self._alive_rows if self._alive_rows else 0.0
        if name == "deaths":
            return float(self._deaths)
        if name == "births":
            return float(self._births)
        raise ValueError(f"unknown metric {name!r}; known: {', '.join(self.METRICS)}")

    def score(self, terms: Sequence[ScoreTerm]) -> float:
        """The score in 0-1."""
        total = sum(t.weight for t in terms)
        got = sum(t.weight * t.fraction(self.metric(t.metric)) for t in terms)
        return got / total if total else 0.0
