"""Strongholds and the Company's Reputation (004 l.175-201)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from ledger import settings
from commands.base import acting, clean_name, clean_text, find_character, record
from projections.reading import query
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from commands.factions import faction_named, known_factions
from commands.economy import Plan, attempt_period, check_rank_up, check_wager
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import (ReputationChanged, StrongholdAttempted, StrongholdFounded, TreasuryFunded,
                                 TreasuryPaid)
from ledger.rules import coeac
from ledger.rules.coeac import COMPANY
from ledger.text import LABEL_LIMIT
from ledger.names import key


def stronghold_stream(name: str) -> str:
    return f"stronghold:{key(name)}"


def stronghold_founding(state: State, name: str, owner: str) -> list[NewEvent]:
    """A stronghold of a character's, or of the Company's (004 l.175), at rank 0."""
    state.require("coeac")
    if state.world.company.stronghold(name):
        raise RuleRefused(f"a stronghold named {name!r} already exists")
    holder = COMPANY if key(owner) == COMPANY else find_character(state, owner).name
    return [NewEvent(stronghold_stream(name), StrongholdFounded(name=name, owner=holder),
                     game_time=state.today, session=state.session_number)]


def found(store, campaign, name: str, *, owner: str, actor: str,
          game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    name = clean_name(name, "a stronghold's name")
    return record(store, campaign, actor, lambda ctx: stronghold_founding(state_of(ctx), name, owner),
                  game_date=game_date, ruling=ruling)[0]


@dataclass(frozen=True)
class Treasury:
    """The Company as a payer: a name for messages and the Cash it holds."""

    cash: int
    name: str = "the Company"


def plan_improvement(state: State, name: str, wager: int, by: str, tags: Sequence[str]) -> Plan:
    state.require("coeac")
    stronghold = state.world.company.stronghold(name)
    if stronghold is None:
        raise NotFound(f"no stronghold named {name!r} (found one with `tally stronghold found`)")
    rule = settings.in_force(state.campaign.settings, "stronghold_pool")
    if key(by) == COMPANY:
        if stronghold.owner != COMPANY:
            raise RuleRefused(f"{stronghold.name} belongs to {stronghold.owner}: the Company's treasury pays only "
                              "for the Company's own strongholds")
        # The Company has Cash but no Wealth score: its pool is the Cash it wagers.
        payer, who, wealth = Treasury(state.world.company.cash), COMPANY, 0
    else:
        payer = acting(state, by)
        if stronghold.owner != COMPANY and key(stronghold.owner) != key(payer.name):
            raise RuleRefused(f"{stronghold.name} belongs to {stronghold.owner}, not {payer.name}")
        # l.151, l.157: a stronghold is bought like goods, [Wealth] dice plus wagered
        # Cash; only Wealth itself is bought with Cash alone (l.152).
        who, wealth = payer.name, payer.wealth if rule == "wealth" else 0
    check_rank_up(state, stronghold.name, stronghold.rating, coeac.MAX_STRONGHOLD, stronghold.periods, "004 l.185")
    chosen = [clean_text(t, "a tag", LABEL_LIMIT) for t in tags if t.strip()]
    if len(chosen) != 2:
        raise BadInput("name the two tags the new rank adds: --tags Economy,Fortifications (004 l.177)")
    check_wager(payer, wager, minimum=0 if wealth else 1)
    rank = stronghold.rating + 1
    return Plan(who, coeac.stronghold_ob(rank), wealth + wager, wager,
                details={"stronghold": stronghold.name, "rank_from": stronghold.rating, "rank_to": rank,
                         "tags": chosen, "wealth_dice": wealth, "pool_rule": rule}).with_odds()


def stronghold_attempt(state: State, name: str, *, wager: int, by: str, tags: Sequence[str],
                       dice: Dice) -> list[NewEvent]:
    """l.185: a stronghold improves one rank at a time against the Ob of the new
    rank, once per session whatever the result; a success adds two tags (l.177)."""
    plan = plan_improvement(state, name, wager, by, tags)
    d = plan.details
    batch = Batch(state, dice)
    payer = None if plan.character == COMPANY else plan.character
    roll, _, successes = batch.roll(f"{plan.pool}{coeac.POOL}", character=payer,
                                    why=f"improve {d['stronghold']} to {d['rank_to']}, Ob {plan.ob}"
                                    + ("" if payer else ", from the Company's treasury"))
    succeeded = successes >= plan.ob
    period, limit = attempt_period(state)
    batch.add(stronghold_stream(d["stronghold"]), StrongholdAttempted(
        name=d["stronghold"], by=plan.character, rank_from=d["rank_from"], ob=plan.ob,
        wager=wager, wealth_dice=d["wealth_dice"], pool=plan.pool, pool_rule=d["pool_rule"],
        successes=successes, succeeded=succeeded, tags=d["tags"] if succeeded else [],
        period=period, limit=limit), cause=roll)
    return batch.done()


def improve(store, campaign, name: str, *, wager: int, by: str, tags: Sequence[str], actor: str,
            hand: Optional[Sequence[int]] = None, dry_run: bool = False,
            game_date: Optional[str] = None, ruling: Optional[str] = None):
    if dry_run:
        return query(store, campaign, lambda ctx: plan_improvement(state_of(ctx, period=True), name, wager, by, tags))
    return record(store, campaign, actor, lambda ctx: stronghold_attempt(
        state_of(ctx, period=True), name, wager=wager, by=by, tags=tags, dice=dice_of(ctx, hand)),
        game_date=game_date, ruling=ruling)


def reputation_change(state: State, faction: str, delta: int, why: str, *, new: bool = False,
                      known: Optional[Iterable[str]] = None) -> list[NewEvent]:
    """``known``: the Factions the ledger names on any day (default: those the
    world holds); a name outside them is a first mention and needs ``new``."""
    state.require("coeac")
    if delta == 0:
        raise BadInput("a Reputation change of 0 changes nothing")
    # l.201: to a limit of ±6; a clamp, not an error. The fold applies it.
    if known is None:
        known = [n for n, _ in state.world.company.reputation.values()]
    named = faction_named(faction, known, new=new)
    return [NewEvent(f"faction:{key(faction)}", ReputationChanged(
        faction=named, requested=delta, before=state.world.company.rep(faction), limit=coeac.REPUTATION_LIMIT,
        why=why),
        game_time=state.today, session=state.session_number)]


def change_reputation(store, campaign, faction: str, delta: int, *, why: str, actor: str, new: bool = False,
                      game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    faction = clean_name(faction, "a faction's name")
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: reputation_change(
        state_of(ctx), faction, delta, why, new=new, known=known_factions(ctx)),
        game_date=game_date, ruling=ruling)[0]


# -- the Company's treasury (l.176, l.183) -------------------------------------------

def treasury_move(state: State, name: str, amount: int, why: str, *, out: bool) -> list[NewEvent]:
    """Cash out of the Company's treasury to a character (``out``), or into it from one."""
    state.require("coeac")
    character = find_character(state, name)
    if amount < 1:
        raise BadInput("move at least 1 Cash")
    holder, cash = ("the Company", state.world.company.cash) if out else (character.name, character.cash)
    if amount > cash:
        raise RuleRefused(f"{holder} has {cash} Cash and cannot give {amount}")
    model = TreasuryPaid if out else TreasuryFunded
    return [NewEvent(COMPANY, model(character=character.name, amount=amount, why=why), game_time=state.today)]


def _treasury_move(store, campaign, name: str, amount: int, why: str, *, actor: str, out: bool,
                   game_date: Optional[str], ruling: Optional[str]) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: treasury_move(state_of(ctx), name, amount, why, out=out),
                  game_date=game_date, ruling=ruling)[0]


def pay_out(store, campaign, name: str, amount: int, *, why: str, actor: str,
            game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    """The referee pays a character out of the Company's Cash."""
    return _treasury_move(store, campaign, name, amount, why, actor=actor, out=True, game_date=game_date,
                          ruling=ruling)


def fund(store, campaign, name: str, amount: int, *, why: str, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    """A character puts Cash into the Company's treasury."""
    return _treasury_move(store, campaign, name, amount, why, actor=actor, out=False, game_date=game_date,
                          ruling=ruling)
