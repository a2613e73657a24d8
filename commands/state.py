"""What a rule decides against: the campaign as it stands — its read models,
today, the open session, the settings, and the period a once-per-session
limit counts in — as one frozen value, with no transaction behind it. A
decision is a function of (State, the command's arguments, the dice)
returning the events, so a rule can be checked on a world folded in memory
(tests/rules/); ``state_of`` takes it from the Context a command records in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ledger.errors import RuleRefused
from projections.campaign import CampaignState
from projections.reading import Context
from projections.sessions import Session
from projections.world import World


@dataclass(frozen=True)
class State:
    name: str  # the campaign's, for messages
    world: World
    # What a once-per-session limit counts in (Context.period): "session N", or
    # "downtime epoch N" between sessions. Only the rules with such a limit ask
    # for it, since between sessions it reads the open epoch (state_of(period=True)).
    counted_in: Optional[str] = None

    @property
    def campaign(self) -> CampaignState:
        return self.world.campaign

    @property
    def today(self) -> int:
        return self.campaign.today

    @property
    def session(self) -> Optional[Session]:
        """The open session, or None between sessions."""
        return self.world.sessions.current

    @property
    def session_number(self) -> Optional[int]:
        return self.session.number if self.session else None

    @property
    def period(self) -> str:
        if self.counted_in is None:
            raise RuntimeError("this decision reads the period: take its state with state_of(ctx, period=True)")
        return self.counted_in

    def require(self, module: str) -> None:
        if not self.campaign.runs(module):
            raise RuleRefused(
                f"campaign {self.name} does not run the {module} rules "
                f"(it runs {', '.join(self.campaign.rules) or 'none'})"
            )


def state_of(ctx: Context, *, period: bool = False) -> State:
    """The state a command's decision reads, from the campaign as loaded;
    ``period``: with what a once-per-session limit counts in."""
    return State(ctx.name, ctx.world, ctx.period if period else None)
