"""Strongholds and the Company's Reputation (004 l.175-201)."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger.commands.base import Context, clean_name, clean_text, find_character, query, record
from ledger.commands.batch import Batch
from ledger import settings
from ledger.commands.economy import Plan, acting, attempt_period, check_rank_up, check_wager
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import ReputationChanged, StrongholdAttempted, StrongholdFounded
from ledger.rules import coeac
from ledger.text import LABEL_LIMIT
from projections.names import key


def stronghold_stream(name: str) -> str:
    return f"stronghold:{key(name)}"


def found(store, campaign, name: str, *, owner: str, actor: str,
          game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    name = clean_name(name, "a stronghold's name")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("coeac")
        if ctx.world.company.stronghold(name):
            raise RuleRefused(f"a stronghold named {name!r} already exists")
        holder = "company" if key(owner) == "company" else find_character(ctx, owner).name
        return [NewEvent(stronghold_stream(name), StrongholdFounded(name=name, owner=holder),
                         game_time=ctx.today, session=ctx.session_number)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)[0]


def plan_improvement(ctx: Context, name: str, wager: int, by: str, tags: Sequence[str]) -> Plan:
    character = acting(ctx, by)
    stronghold = ctx.world.company.stronghold(name)
    if stronghold is None:
        raise NotFound(f"no stronghold named {name!r} (found one with `tally stronghold found`)")
    if stronghold.owner != "company" and key(stronghold.owner) != key(character.name):
        raise RuleRefused(f"{stronghold.name} belongs to {stronghold.owner}, not {character.name}")
    check_rank_up(ctx, stronghold.name, stronghold.rating, coeac.MAX_STRONGHOLD, stronghold.periods, "004 l.185")
    chosen = [clean_text(t, "a tag", LABEL_LIMIT) for t in tags if t.strip()]
    if len(chosen) != 2:
        raise BadInput("name the two tags the new rank adds: --tags Economy,Fortifications (004 l.177)")
    # l.151, l.157: a stronghold is bought like goods, [Wealth] dice plus wagered
    # Cash; only Wealth itself is bought with Cash alone (l.152).
    rule = settings.value(ctx.campaign.settings, "stronghold_pool")
    wealth = character.wealth if rule == "wealth" else 0
    check_wager(character, wager, minimum=0 if wealth else 1)
    rank = stronghold.rating + 1
    return Plan(character.name, coeac.stronghold_ob(rank), wealth + wager, wager,
                details={"stronghold": stronghold.name, "rank_from": stronghold.rating, "rank_to": rank,
                         "tags": chosen, "wealth_dice": wealth, "pool_rule": rule}).with_odds()


def improve(store, campaign, name: str, *, wager: int, by: str, tags: Sequence[str], actor: str,
            hand: Optional[Sequence[int]] = None, dry_run: bool = False,
            game_date: Optional[str] = None, ruling: Optional[str] = None):
    if dry_run:
        return query(store, campaign, lambda ctx: plan_improvement(ctx, name, wager, by, tags))

    def decide(ctx: Context) -> list[NewEvent]:
        plan = plan_improvement(ctx, name, wager, by, tags)
        d = plan.details
        batch = Batch(ctx, hand)
        roll, _, successes = batch.roll(f"{plan.pool}{coeac.POOL}", character=plan.character,
                                        why=f"improve {d['stronghold']} to {d['rank_to']}, Ob {plan.ob}")
        succeeded = successes >= plan.ob
        period, limit = attempt_period(ctx)
        batch.add(stronghold_stream(d["stronghold"]), StrongholdAttempted(
            name=d["stronghold"], by=plan.character, rank_from=d["rank_from"], ob=plan.ob,
            wager=wager, wealth_dice=d["wealth_dice"], pool=plan.pool, pool_rule=d["pool_rule"],
            successes=successes, succeeded=succeeded, tags=d["tags"] if succeeded else [],
            period=period, limit=limit), cause=roll)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def change_reputation(store, campaign, faction: str, delta: int, *, why: str, actor: str,
                      game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    faction = clean_name(faction, "a faction's name")
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("coeac")
        if delta == 0:
            raise BadInput("a Reputation change of 0 changes nothing")
        # l.201: to a limit of ±6; a clamp, not an error. The fold applies it.
        known = next((n for n, _ in ctx.world.company.reputation.values() if key(n) == key(faction)), faction)
        return [NewEvent(f"faction:{key(faction)}", ReputationChanged(
            faction=known, requested=delta, before=ctx.world.company.rep(faction), limit=coeac.REPUTATION_LIMIT,
            why=why),
            game_time=ctx.today, session=ctx.session_number)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)[0]
