"""Cash, Wealth, buying and selling, treasure (004 l.146-174, l.600-606, l.751-769).

Every wager is rolled as a pool of d6 counting 4-6 and always lost (l.151).
A wager command can be asked for its exact odds first (``dry_run``): the
plan is computed in a read-only transaction and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from ledger import settings
from commands.base import acting, character_stream, clean_text, find_character, record
from projections.reading import query
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from commands.inventory import Kit, item_gained, room_check
from commands.session import session_stream
from commands.xp import treasure_into
from ledger.chain import SAFE_INTEGER
from ledger.dice.expression import parse
from ledger.dice.odds import chance_at_least
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import ItemBought, ItemDropped, ItemSold, WealthAttempted
from ledger.events.stable import CashChanged, TreasureDivided, TreasureFound
from ledger.rules import coeac
from ledger.text import LABEL_LIMIT
from ledger.names import key


@dataclass
class Plan:
    """A wager worked out before rolling: what the dry run shows."""

    character: str
    ob: int
    pool: int
    wager: int
    chance: Optional[float] = None
    exact: Optional[str] = None
    details: dict = field(default_factory=dict)

    def with_odds(self) -> "Plan":
        if 0 < self.pool < self.ob:
            raise RuleRefused(
                f"{self.pool} dice can never make {self.ob} successes: wager more (the Cash would be lost for nothing)"
            )
        if self.pool > 0 and self.ob > 0:
            p = chance_at_least(parse(f"{self.pool}{coeac.POOL}"), self.ob)
            self.chance, self.exact = float(p), f"{p.numerator}/{p.denominator}"
        elif self.ob <= 0:
            self.chance, self.exact = 1.0, "1/1"
        return self

    def as_dict(self) -> dict:
        return {"character": self.character, "ob": self.ob, "pool": self.pool, "wager": self.wager,
                "chance": self.chance, "exact": self.exact, **self.details}


def attempt_period(state: State) -> tuple[str, str]:
    """What a once-per-session attempt counts in, and the attempt_limit in
    force: from one session's opening to the next's (004 l.171, l.185), or
    under ``epoch`` the session or the downtime epoch between sessions."""
    limit = settings.in_force(state.campaign.settings, "attempt_limit")
    return (state.period if limit == "epoch" else state.world.sessions.cycle), limit


def check_rank_up(state: State, what: str, rating: int, maximum: int, periods: tuple[str, ...],
                  source: str) -> None:
    """A rank can be bought one at a time, up to the maximum, one attempt per
    session whatever the result."""
    if rating >= maximum:
        raise RuleRefused(f"{what} is at {maximum}, the highest rank")
    period, limit = attempt_period(state)
    if period in periods:
        when = f"since {period} opened" if period.startswith("session ") else \
            period if period.startswith("before") else f"in {period}"
        raise RuleRefused(f"{what} was already tried {when}: once per session, success or failure ({source}; "
                          f"attempt_limit {limit})")


def check_wager(holder, wager: int, *, minimum: int = 1) -> None:
    """``holder``: a character, or anything with a name and Cash (the Company)."""
    if wager < minimum:
        raise BadInput(f"wager at least {minimum} Cash")
    if wager > holder.cash:
        raise RuleRefused(f"{holder.name} has {holder.cash} Cash and cannot wager {wager}")


def within_the_ledger(total: int, what: str) -> None:
    """Refuse a running total the ledger could not record: a share, a wager or a sale of it
    would be a number past the largest it stores (the session could not close, nor the purse be spent)."""
    if total > SAFE_INTEGER:
        raise BadInput(f"that would make {what} {total:,}, past the largest whole number the ledger stores "
                       f"({SAFE_INTEGER:,}): record a smaller amount")


# -- treasure ------------------------------------------------------------------

def treasure_found(state: State, cash: int, source: str) -> list[NewEvent]:
    if state.session is None:
        raise RuleRefused("treasure is found during a session: open one first")
    if cash < 1:
        raise BadInput("a horde holds at least 1 Cash")
    within_the_ledger(state.session.undivided + cash, "the treasure waiting to be divided")
    return [NewEvent(session_stream(state.session.number),
                     TreasureFound(cash=cash, source=source, currency=currency(state)),
                     game_time=state.today, session=state.session.number)]


def add_treasure(store, campaign, cash: int, *, source: str, actor: str,
                 game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    source = clean_text(source, "--from")
    return record(store, campaign, actor, lambda ctx: treasure_found(state_of(ctx), cash, source),
                  game_date=game_date, ruling=ruling)[0]


def treasure_division(state: State, shares: dict[str, int], set_aside: Optional[dict[str, int]] = None,
                      dice: Optional[Dice] = None) -> list[NewEvent]:
    """The horde found this session shared out: evenly, or as the referee names the shares (004 l.630)."""
    session = state.session
    if session is None:
        raise RuleRefused("no session is open: treasure is divided at the end of the session it was found in")
    if not session.undivided:
        raise RuleRefused(f"no treasure waits to be divided in session {session.number}")
    if not shares and not set_aside:
        named, companions = even_shares(state, session)
    else:
        named, companions = _named_shares(state, session, shares), {}
    held = {}
    for name, cash in (set_aside or {}).items():
        player = state.world.stable.player(name)
        if player is None:
            raise NotFound(f"no player named {name!r}")
        if key(player.name) in {key(p) for p in session.activated}:
            raise RuleRefused(f"{player.name} played this session: give their character a share instead")
        held[player.name] = _share(cash, player.name)
    total = sum(named.values()) + sum(held.values()) + sum(companions.values())
    if total != session.undivided:
        raise RuleRefused(
            f"the shares add up to {total} but {session.undivided} was found: account for the whole horde"
        )
    batch = Batch(state, dice)  # the Hit Dice of levels the treasure's XP brings (Wolves and xp)
    batch.add(session_stream(session.number), TreasureDivided(
        total=total, shares=named, set_aside=held, companions=companions, currency=currency(state)))
    if state.campaign.runs("xp"):
        treasure_into(state, batch, named)
    return batch.done()


def split_treasure(store, campaign, shares: dict[str, int], *, set_aside: Optional[dict[str, int]] = None,
                   actor: str, game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    return record(store, campaign, actor, lambda ctx: treasure_division(state_of(ctx), shares, set_aside, dice_of(ctx)),
                  game_date=game_date, ruling=ruling)


def currency(state: State) -> str:
    """Hordes are counted in Cash dice (coeac), or silver pennies (wolves, 000 l.62)."""
    return "sp" if state.campaign.runs("wolves") and not state.campaign.runs("coeac") else "cash"


def even_shares(state: State, session) -> tuple[dict[str, int], dict[str, int]]:
    """Equal shares for the characters present; under wolves each of their
    companions takes a half share (000 l.248). What does not divide evenly goes
    one unit at a time to the characters, in the order they were activated."""
    present = [c for c in (state.world.stable.character(n) for n in session.activated.values()) if c.status == "active"]
    if not present:
        raise RuleRefused("no character present can take a share")
    companions = [c for ch in present for c in state.world.wolves.of(ch.name).companions] \
        if state.campaign.runs("wolves") else []
    halves = 2 * len(present) + len(companions)
    unit, rest = divmod(session.undivided, halves)
    named = {ch.name: 2 * unit for ch in present}
    for i in range(rest):
        named[present[i % len(present)].name] += 1
    return named, {c: unit for c in companions}


def _named_shares(state: State, session, shares: dict[str, int]) -> dict[str, int]:
    named = {}
    for name, cash in shares.items():
        character = find_character(state, name)
        if not session.is_activated(character.name):
            raise RuleRefused(f"{character.name} was not on this expedition: only present characters share (004 l.630)")
        if state.campaign.runs("wolves") and state.world.wolves.of(character.name).companions:
            raise RuleRefused(f"{character.name}'s companions take half shares (000 l.248): run `tally treasure split` "
                              "with no shares to divide the horde evenly")
        named[character.name] = _share(cash, character.name)
    return named


def _share(cash: int, who: str) -> int:
    if cash < 0:
        raise BadInput(f"{who}'s share cannot be negative")
    return cash


def cash_change(state: State, name: str, delta: int, why: str) -> list[NewEvent]:
    character = acting(state, name)  # as for sell: in a session, only the activated (004 l.496)
    if delta == 0:
        raise BadInput("a Cash change of 0 changes nothing")
    if delta < 0 and character.cash + delta < 0:  # a purse below zero by a ruling may still gain
        raise RuleRefused(f"{character.name} has {character.cash} Cash; cannot take away {-delta}")
    within_the_ledger(character.cash + delta, f"{character.name}'s Cash")
    return [NewEvent(character_stream(character.name), CashChanged(character=character.name, delta=delta, why=why),
                     game_time=state.today, session=state.session_number)]


def change_cash(store, campaign, name: str, delta: int, *, why: str, actor: str,
                game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: cash_change(state_of(ctx), name, delta, why),
                  game_date=game_date, ruling=ruling)[0]


# -- Wealth ---------------------------------------------------------------------

def plan_wealth(state: State, name: str, wager: int) -> Plan:
    character = acting(state, name)
    check_rank_up(state, f"{character.name}'s Wealth", character.wealth, coeac.MAX_WEALTH,
                  character.wealth_periods, "004 l.171")
    check_wager(character, wager)
    rank = character.wealth + 1
    return Plan(character.name, coeac.wealth_ob(rank), wager, wager,
                details={"rank_from": character.wealth, "rank_to": rank}).with_odds()


def wealth_attempt(state: State, name: str, wager: int, dice: Dice) -> list[NewEvent]:
    """l.171: one rank up, bought with wagered Cash alone against Ob of the new
    rank, once per session whatever the result; the Cash is lost either way."""
    plan = plan_wealth(state, name, wager)
    batch = Batch(state, dice)
    roll, _, successes = batch.roll(f"{wager}{coeac.POOL}", character=plan.character,
                                    why=f"improve Wealth to {plan.details['rank_to']}, Ob {plan.ob}")
    period, limit = attempt_period(state)
    batch.add(character_stream(plan.character), WealthAttempted(
        character=plan.character, rank_from=plan.details["rank_from"],
        ob=plan.ob, wager=wager, successes=successes, succeeded=successes >= plan.ob, period=period,
        limit=limit), cause=roll)
    return batch.done()


def improve_wealth(store, campaign, name: str, *, wager: int, actor: str,
                   hand: Optional[Sequence[int]] = None, dry_run: bool = False,
                   game_date: Optional[str] = None, ruling: Optional[str] = None):
    if dry_run:
        return query(store, campaign, lambda ctx: plan_wealth(state_of(ctx, period=True), name, wager))
    return record(store, campaign, actor,
                  lambda ctx: wealth_attempt(state_of(ctx, period=True), name, wager, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


# -- buying and selling -----------------------------------------------------------

def plan_purchase(state: State, name: str, cost: int, wager: int, scarce: bool, item: str = "",
                  kit: Optional[Kit] = None) -> Plan:
    """The purchase's odds; with ``kit`` (goods to carry, not a service) it must
    also find room in the buyer's inventory, checked before any Cash is wagered."""
    character = acting(state, name)
    if cost < 0:
        raise BadInput("a Cost cannot be negative")
    if kit is not None:
        item_gained(state, character, item, kit, source="bought", why="")
    rule = state.campaign.settings["purchase_rule"]
    effective = cost + (1 if scarce else 0)  # l.604: scarcity, usually Cost +1
    details = {"rule": rule, "cost": cost, "scarcity": scarce, "wealth": character.wealth}
    if rule == "pool":  # l.149-153: Ob = Cost; [Wealth] dice plus wagered Cash
        check_wager(character, wager, minimum=0)
        pool = character.wealth + wager
        if pool == 0:
            raise RuleRefused(f"{character.name} has Wealth 0: wager Cash to have any dice to roll")
        return Plan(character.name, effective, pool, wager, details=details).with_odds()
    ob = effective - character.wealth  # l.601: Ob = Cost − Wealth, wagered Cash only
    if ob <= 0:  # l.603: a flat single Cash die, no wager, no roll
        if wager:
            raise RuleRefused(f"at Ob {ob} the item costs one Cash die flat, no wager (004 l.603): drop --wager")
        if character.cash < 1:
            raise RuleRefused(f"{character.name} needs 1 Cash for this purchase and has none")
        return Plan(character.name, ob, 0, 0, details={**details, "flat": True, "cash_spent": 1}).with_odds()
    check_wager(character, wager)
    return Plan(character.name, ob, wager, wager, details=details).with_odds()


def purchase(state: State, name: str, item: str, *, cost: int, wager: int, scarce: bool = False,
             kit: Optional[Kit] = None, dice: Dice) -> list[NewEvent]:
    """Goods bought go into the inventory (``kit``); a service (no kit) is not carried."""
    plan = plan_purchase(state, name, cost, wager, scarce, item, kit)
    batch = Batch(state, dice)
    d = plan.details
    if d.get("flat"):
        successes, cause, succeeded, spent = None, None, True, 1
    else:
        cause, _, successes = batch.roll(f"{plan.pool}{coeac.POOL}", character=plan.character,
                                         why=f"buy {item}, Ob {plan.ob}")
        succeeded, spent = successes >= plan.ob, wager
    bought = batch.add(character_stream(plan.character), ItemBought(
        character=plan.character, item=item, cost=cost, scarcity=scarce, wealth=d["wealth"], rule=d["rule"],
        ob=plan.ob, wager=wager, pool=plan.pool, successes=successes, succeeded=succeeded, cash_spent=spent),
        cause=cause)
    if succeeded and kit is not None:
        buyer = state.world.stable.character(plan.character)
        batch.add(character_stream(plan.character), item_gained(state, buyer, item, kit, source="bought",
                                                               why=f"bought for Cost {cost}"), cause=bought)
    return batch.done()


def buy(store, campaign, name: str, item: str, *, cost: int, wager: int, actor: str, scarce: bool = False,
        kit: Optional[Kit] = None, hand: Optional[Sequence[int]] = None, dry_run: bool = False,
        game_date: Optional[str] = None, ruling: Optional[str] = None):
    item = clean_text(item, "the item", LABEL_LIMIT)
    kit = kit.checked() if kit is not None else None
    if dry_run:
        return query(store, campaign, lambda ctx: plan_purchase(state_of(ctx), name, cost, wager, scarce, item, kit))
    return record(store, campaign, actor, lambda ctx: purchase(
        state_of(ctx), name, item, cost=cost, wager=wager, scarce=scarce, kit=kit, dice=dice_of(ctx, hand)),
        game_date=game_date, ruling=ruling)


def sale(state: State, name: str, item: str, cost: int, dice: Dice) -> list[NewEvent]:
    """l.605-606: Cost below Wealth yields pocket change; above, roll (Cost − Wealth)
    dice, one Cash per success. Cost equal to Wealth: the book is silent; nothing."""
    character = acting(state, name)
    if cost < 0:
        raise BadInput("a Cost cannot be negative")
    batch = Batch(state, dice)
    count = max(0, cost - character.wealth)
    gained, cause = 0, None
    if count:
        cause, _, gained = batch.roll(f"{count}{coeac.POOL}", character=character.name, why=f"sell {item}")
    sold = batch.add(character_stream(character.name), ItemSold(
        character=character.name, item=item, cost=cost, wealth=character.wealth, dice=count,
        cash_gained=gained), cause=cause)
    goods = state.world.inventory.item(character.name, item)
    if goods is not None:  # what was carried leaves the inventory
        room_check(character, tuple(i for i in state.world.inventory.of(character.name) if i is not goods))
        batch.add(character_stream(character.name), ItemDropped(character=character.name, item=goods.name,
                                                                why="sold"), cause=sold)
    return batch.done()


def sell(store, campaign, name: str, item: str, *, cost: int, actor: str,
         hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    item = clean_text(item, "the item", LABEL_LIMIT)
    return record(store, campaign, actor, lambda ctx: sale(state_of(ctx), name, item, cost, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)
