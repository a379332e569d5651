"""Errors of the Colony service as one Python exception.

The service answers a refusal with a body ``{"error": "<code>: <detail>", ...extras}``. Domain
errors come with HTTP 200 (the contract's compatibility choice), transport failures with real
statuses; :class:`ColonyError` is raised for both, whatever the status. Placement refusals carry no
code prefix: they get the code ``placement`` (their ``reason`` extra says why), as ``colony mcp``
labels them.
"""

from __future__ import annotations

import re
from typing import Any

_CODE = re.compile(r"^([a-z][a-z0-9]*(?:_[a-z0-9]+)*): (.*)$", re.DOTALL)


class ColonyError(Exception):
    """An error answer of colonyd (or a failure to reach it).

    Attributes:
        code: the error code (``not_found``, ``invalid_param``, ``game_not_ready``...);
            ``placement`` for placement refusals, ``unreachable`` when colonyd could not be
            reached, ``http_<status>`` for an HTTP error without an error body.
        detail: the text after the code.
        extras: the body's other members (``got``, ``hint``, ``reason``, ``x``...).
        status: the HTTP status of the answer (0 when there was none).
    """

    def __init__(
        self, code: str, detail: str, extras: dict[str, Any] | None = None, status: int = 0
    ) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.extras: dict[str, Any] = dict(extras or {})
        self.status = status

    @classmethod
    def from_body(cls, body: dict[str, Any], status: int = 200) -> ColonyError:
        """The error of an error body (``{"error": ...}``)."""
        text = str(body.get("error", ""))
        extras = {k: v for k, v in body.items() if k != "error"}
        m = _CODE.match(text)
        if m:
            return cls(m.group(1), m.group(2), extras, status)
        code = "placement" if "reason" in extras else "error"
        return cls(code, text, extras, status)

    def __repr__(self) -> str:
        return f"ColonyError({self.code!r}, {self.detail!r}, {self.extras!r}, status={self.status})"
