"""Followers (004 l.613-616): loyal companions; a Feat's Follower can be
replaced, but recruiting takes a week, so the replacement joins from the
session after the loss."""

from __future__ import annotations

from typing import Optional

from commands.base import character_stream, clean_name, clean_text, find_character, record
from commands.state import State, state_of
from projections.reading import Context
from ledger.envelope import Envelope, NewEvent
from ledger.errors import NotFound, RuleRefused
from ledger.events.coeac import FollowerGained, FollowerLost
from commands.inventory import room_check
from ledger.names import key

RECRUITING_DAYS = 7  # l.615: "it takes a week to recruit any new Followers"


def gain(store, campaign, character: str, name: str, *, feat: bool, actor: str,
         refills: Optional[str] = None, game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    name = clean_name(name, "a Follower's name")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("coeac")
        owner = find_character(ctx, character)
        if any(key(f) == key(name) for f, _ in owner.followers):
            raise RuleRefused(f"{owner.name} already has a Follower named {name}")
        filled = None
        if refills:
            vacancy = next((v for v in owner.vacancies if key(v["lost"]) == key(refills)), None)
            if vacancy is None:
                raise NotFound(f"{owner.name} has no Feat position left by {refills!r} to refill")
            if ctx.today < vacancy["ready_day"]:
                ready = ctx.campaign.calendar.format(vacancy["ready_day"])
                raise RuleRefused(f"recruiting takes a week (004 l.615): a replacement for {vacancy['lost']} "
                                  f"is ready on {ready}")
            session = ctx.session
            if session is not None and _lost_in(ctx, owner.name, vacancy["lost"], session.number):
                raise RuleRefused(f"{vacancy['lost']} was lost this session: the replacement joins from the "
                                  "next session (004 l.615)")
            filled = vacancy["lost"]
        return [NewEvent(character_stream(owner.name), FollowerGained(
            character=owner.name, name=name, feat=feat or filled is not None, refills=filled),
            game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)[0]


def _lost_in(ctx: Context, character: str, follower: str, session: int) -> bool:
    return any(key(e.payload["character"]) == key(character) and key(e.payload["name"]) == key(follower)
               for e in ctx.events(types=["follower.lost"], session=session))


def follower_lost(state: State, character: str, name: str, why: str) -> list[NewEvent]:
    state.require("coeac")
    owner = find_character(state, character, active=False)
    follower = next(((f, feat) for f, feat in owner.followers if key(f) == key(name)), None)
    if follower is None:
        raise NotFound(f"{owner.name} has no Follower named {name!r}")
    # l.559: a Follower carried three Slots; what they carried must fit what is left.
    room_check(owner, state.world.inventory.of(owner.name), followers=len(owner.followers) - 1)
    # l.616: a Follower gained through the fiction is simply lost; a Feat's can be refilled.
    ready = state.today + RECRUITING_DAYS if follower[1] else None
    return [NewEvent(character_stream(owner.name), FollowerLost(
        character=owner.name, name=follower[0], why=why, feat=follower[1], ready_day=ready),
        game_time=state.today)]


def lose(store, campaign, character: str, name: str, *, why: str, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: follower_lost(state_of(ctx), character, name, why),
                  game_date=game_date, ruling=ruling)[0]
