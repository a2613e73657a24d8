"""Voiding: a mistake is never edited away, it is withdrawn by a new event."""

from __future__ import annotations

from typing import Optional

from commands.base import clean_text, record
from projections.reading import Context
from ledger.envelope import Envelope, NewEvent
from ledger.errors import NotFound, RuleRefused
from ledger.events.campaign import EventVoided
from ledger.store import Store
from projections.timeline import VOID, voided_positions

# The audit and the campaign itself rest on these; withdrawing one would
# make the ledger unverifiable rather than correct it.
UNVOIDABLE = {
    "campaign.created": "the campaign's creation",
    "dice.committed": "a dice commitment",
    "dice.client_seed_set": "a client seed",
    "dice.revealed": "a dice reveal",
    # What was signed stays signed: a new key or checkpoint supersedes, nothing withdraws.
    "checkpoint.key_recorded": "a checkpoint key (make a new one with `tally keys new`)",
    "checkpoint.witness_added": "a witness's key",
    "checkpoint.signed": "a signed checkpoint",
    "checkpoint.cosigned": "a witness's cosignature",
    # Sessions are numbered in order, and what was recorded in play carries its session's number:
    # a withdrawn opening left its close, its Boons and its number standing, and the next session
    # took the same number again.
    "session.opened": "a session's opening",
    "session.closed": "a session's close",
}
# What to do instead, where there is something.
INSTEAD = {
    "session.opened": "a session opened by mistake is closed (`tally session close`) and what was recorded in it "
                      "voided",
    "session.closed": "the Down and Out results and Boons it gave can be voided one by one, and the next "
                      "`tally session open` follows it",
}


def void(store: Store, campaign: Optional[str], position: int, *, why: str,
         actor: str, ruling: Optional[str] = None) -> Envelope:
    reason = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        target = ctx.event(position)
        if target is None:
            raise NotFound(f"campaign {ctx.name} has no event at position {position} (see `tally log`)")
        if target.type == VOID:
            raise RuleRefused(
                f"event {position} is itself a void; record the event again instead of voiding the void"
            )
        if target.type in UNVOIDABLE:
            instead = f": {INSTEAD[target.type]}" if target.type in INSTEAD else ""
            raise RuleRefused(f"event {position} is {UNVOIDABLE[target.type]}, which cannot be voided{instead}")
        withdrawn = voided_positions(ctx.events(types=[VOID]))
        if position in withdrawn:
            raise RuleRefused(f"event {position} is already voided")
        event = EventVoided(target=position, target_type=target.type, reason=reason, ruled_by=actor)
        return [NewEvent(target.stream, event, game_time=ctx.today, cause=position)]

    return record(store, campaign, actor, decide, ruling=ruling)[0]

