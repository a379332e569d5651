"""Schemathesis hooks for tools/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

The OpenAPI document declares every constraint a JSON Schema can state (ranges, enumerations,
patterns; the game's prefab and crop names). What it cannot state is validity that relates
members to each other or to the map: an area's corners in order (x1 <= x2, y1 <= y2), an area
or a path's ends on the map, the proximity filter's x and y together, an area or an id for
planting/find, stats' `to` not before `from`. The descriptions say so and the service refuses
those with `invalid_param`; this hook drops exactly those refusals from the
`positive_data_acceptance` check (ST202), recognised by the service's own error text (JSON or
TOON text), so that any other refusal of a request the document calls valid fails the run.
"""

from __future__ import annotations

import re

import schemathesis

# Error texts of the refusals that depend on more than one member or on the map.
BEYOND_SCHEMA = re.compile(
    r"invalid_param: ("
    r"inverted area "
    r"|area .* lies outside the \d+x\d+ map"
    r"|[xy][12] = -?\d+ is off the \d+x\d+ map"
    r"|x and y go together"
    r"|radius needs x and y"
    r"|send an area x1, y1, x2, y2"
    r"|to \(\d+\) must not be before from"
    r")"
)


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    if type(failure).__name__ != "RejectedPositiveData" or response.status_code != 400:
        return True
    return not BEYOND_SCHEMA.search(response.text or "")
