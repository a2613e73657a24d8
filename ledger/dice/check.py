"""A roll checked against a target: pass or fail, the margin, and an
optional band (003 l.23 "getting 3 less than they need is an epic success,
3 more an epic failure"; 004 l.44 "a Margin of 3 or more")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ledger.errors import BadInput

# How a total is compared with the target. The margin is how far the total
# lies from the target, counted positive toward passing.
LOW_WINS = ("below", "at_most")  # margin = target - total
HIGH_WINS = ("at_least", "above", "ob")  # margin = total - target
SYMBOL = {"below": "<", "at_most": "<=", "at_least": ">=", "above": ">", "ob": ">="}
# What the roll command is asked for: --under reads as the campaign's roll_under setting.
ASKED = ("under", "at_most", "at_least", "over", "ob")
EPIC_SUCCESS, EPIC_FAILURE = "epic success", "epic failure"


@dataclass(frozen=True)
class Target:
    against: str  # one of LOW_WINS + HIGH_WINS
    number: int
    epic: Optional[int] = None  # a margin this far either way is an epic success or failure

    def margin(self, total: int) -> int:
        return self.number - total if self.against in LOW_WINS else total - self.number

    def passed(self, total: int) -> bool:
        return self.margin(total) > 0 if self.against in ("below", "above") else self.margin(total) >= 0

    def band(self, total: int) -> Optional[str]:
        if self.epic is None:
            return None
        margin = self.margin(total)
        return EPIC_SUCCESS if margin >= self.epic else EPIC_FAILURE if margin <= -self.epic else None

    def result(self, total: int) -> dict:
        """What the roll event records of the check."""
        return {"against": self.against, "target": self.number, "passed": self.passed(total),
                "margin": self.margin(total), "epic": self.epic, "band": self.band(total)}

    def chances(self, dist: dict[int, Fraction]) -> dict[str, Fraction]:
        """The exact chance of passing, and of each band."""
        out = {"pass": sum((p for t, p in dist.items() if self.passed(t)), Fraction(0))}
        if self.epic is not None:
            for band in (EPIC_SUCCESS, EPIC_FAILURE):
                out[band] = sum((p for t, p in dist.items() if self.band(t) == band), Fraction(0))
        return out

    def __str__(self) -> str:
        return f"{SYMBOL[self.against]} {self.number}"


def target(asked: str, number: int, epic: Optional[int] = None, *, roll_under: str = "below") -> Target:
    """The target a roll is checked against: ``asked`` is what the referee
    typed (``under`` reads as ``roll_under``: below, or at_most)."""
    from ledger.dice.expression import MAX_NUMBER  # here: a sheet reads SYMBOL and parses no dice

    if asked not in ASKED:
        raise BadInput(f"a roll is checked --under, --at-most, --at-least, --over or --ob, not {asked!r}")
    if abs(number) > MAX_NUMBER:
        raise BadInput(f"a target of {number} is out of reach: at most {MAX_NUMBER} either way")
    if epic is not None and not 1 <= epic <= MAX_NUMBER:
        raise BadInput(f"--epic takes a margin of 1 or more (003 l.23 uses 3), not {epic}")
    against = {"under": roll_under, "over": "above"}.get(asked, asked)
    return Target(against, number, epic)
