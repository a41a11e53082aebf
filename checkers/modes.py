"""The local certificates of a game claim, one per claim kind that has one: what the certificate says of G.

>>> Mode.GRUNDY.states, Mode.P.states, Mode.LEVEL.states
('the Grundy value', 'the outcome (P or N)', 'the level of a level set')
"""
from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """The certificate's mode: a grundy claim states G itself, a p_positions claim the P-positions, a level_set
    claim the levels of G. Chosen from the plan's type in one place (:data:`checkers.certificate.CERTIFICATE_KINDS`).

    >>> Mode("p") is Mode.P, str(Mode.GRUNDY)
    (True, 'grundy')
    """

    GRUNDY = "grundy"
    P = "p"
    LEVEL = "level"

    @property
    def states(self) -> str:
        """What a claim certified in this mode states at a position.

        >>> Mode.P.states
        'the outcome (P or N)'
        """
        return {"grundy": "the Grundy value", "p": "the outcome (P or N)", "level": "the level of a level set"}[self.value]
