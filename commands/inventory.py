"""Inventory (004 l.552-564, l.766): items found and bought go into Slots,
expendables are checked for Depletion, commodities brought home become Cash,
and characters hand Cash and items to one another."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from commands.base import acting, character_stream, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import (CashGiven, CommodityConverted, DepletionChecked, ItemDropped, ItemGained,
                                 ItemGiven)
from ledger.store import Store
from ledger.text import LABEL_LIMIT
from projections.inventory import Item, capacity, used
from ledger.names import key
from projections.stable import Character

MAX_SLOTS = 24  # no single thing takes more Slots than two characters carry
MAX_CARRIES = 24
DEPLETION = range(1, 21)  # l.563: "a Depletion score from 1-20"


@dataclass(frozen=True)
class Kit:
    """What a new item is, as the referee describes it."""

    slots: int = 1  # l.553: "Each item of narrative importance occupies a single Slot"
    depletion: Optional[int] = None
    cash: int = 0
    artifact: bool = False
    carries: int = 0

    def checked(self) -> "Kit":
        if not 0 <= self.slots <= MAX_SLOTS:
            raise BadInput(f"--slots is 0 to {MAX_SLOTS} (004 l.553-555: one, more if cumbersome)")
        if self.depletion is not None and self.depletion not in DEPLETION:
            raise BadInput("--depletion is a score from 1 to 20 (004 l.563)")
        if self.cash < 0:
            raise BadInput("--cash cannot be negative")
        if not 0 <= self.carries <= MAX_CARRIES:
            raise BadInput(f"--carries is 0 to {MAX_CARRIES} (004 l.560: a pack animal 6, a cart 3 or 6)")
        return self


def room_check(character: Character, items: tuple[Item, ...], followers: Optional[int] = None) -> None:
    """Refuse when ``items`` would not fit what the character can carry (l.553,
    l.559-560), with its Followers or as many as ``followers`` says."""
    need, can = used(items), capacity(items, len(character.followers) if followers is None else followers)
    if need > can:
        raise RuleRefused(f"{character.name} would carry {need} Slots of {can} (12, 3 a Follower, and what pack "
                          "animals carry, 004 l.553-560): drop or give something first")


def item_gained(state: State, character: Character, name: str, kit: Kit, *, source: str, why: str) -> ItemGained:
    """The event that puts an item in the inventory, refused if it does not fit. A name
    already carried is a second of its kind (a second horse): commands that name it act on the first."""
    item = Item(name, kit.slots, kit.depletion, False, kit.cash, kit.artifact, kit.carries)
    room_check(character, state.world.inventory.of(character.name) + (item,))
    return ItemGained(character=character.name, item=name, slots=kit.slots, depletion=kit.depletion, cash=kit.cash,
                      artifact=kit.artifact, carries=kit.carries, source=source, why=why)


def carried(state: State, character: Character, name: str) -> Item:
    found = state.world.inventory.item(character.name, name)
    if found is None:
        raise NotFound(f"{character.name} carries no {name!r} (see `tally char show {character.name}`)")
    return found


def item_found(state: State, name: str, item: str, kit: Kit, why: str) -> list[NewEvent]:
    """An item found (or otherwise come by) goes into the inventory."""
    character = acting(state, name)
    return [NewEvent(character_stream(character.name),
                     item_gained(state, character, item, kit, source="found", why=why), game_time=state.today)]


def add(store: Store, campaign: Optional[str], name: str, item: str, kit: Kit, *, why: str, actor: str,
        game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    item, why = clean_text(item, "the item", LABEL_LIMIT), clean_text(why, "--why")
    kit = kit.checked()
    return record(store, campaign, actor, lambda ctx: item_found(state_of(ctx), name, item, kit, why),
                  game_date=game_date, ruling=ruling)[0]


def depletion_check(batch: Batch, character: Character, item: Item, *, why: str, cause=None):
    """l.563: a d20 at or above the score leaves one use; an item on its last use is expended."""
    if item.depletion is None:
        raise RuleRefused(f"{item.name} has no Depletion score: drop it with `tally item drop` when it is used up "
                          "(004 l.564)")
    stream = character_stream(character.name)
    if item.last_use:
        return batch.add(stream, DepletionChecked(character=character.name, item=item.name, score=item.depletion,
                                                  roll=None, result="expended"), cause=cause)
    roll, _, face = batch.roll("1d20", character=character.name, why=f"{why}: Depletion of {item.name}")
    result = "last_use" if face >= item.depletion else "lasts"
    return batch.add(stream, DepletionChecked(character=character.name, item=item.name, score=item.depletion,
                                              roll=face, result=result), cause=roll)


def item_used(state: State, name: str, item: str, dice: Dice) -> list[NewEvent]:
    """An expendable used in a scene, then checked for Depletion (l.563)."""
    character = acting(state, name)
    batch = Batch(state, dice)
    depletion_check(batch, character, carried(state, character, item), why="used")
    return batch.done()


def use(store: Store, campaign: Optional[str], name: str, item: str, *, actor: str,
        hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None,
        ruling: Optional[str] = None) -> list[Envelope]:
    return record(store, campaign, actor, lambda ctx: item_used(state_of(ctx), name, item, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


def item_dropped(state: State, name: str, item: str, why: str) -> list[NewEvent]:
    """Out of the inventory: a bundle used up whole (l.564), lost, left behind."""
    character = acting(state, name)
    gone = carried(state, character, item)
    room_check(character, tuple(i for i in state.world.inventory.of(character.name) if i is not gone))
    return [NewEvent(character_stream(character.name), ItemDropped(character=character.name, item=gone.name,
                                                                   why=why), game_time=state.today)]


def drop(store: Store, campaign: Optional[str], name: str, item: str, *, why: str, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: item_dropped(state_of(ctx), name, item, why),
                  game_date=game_date, ruling=ruling)[0]


def commodity_converted(state: State, name: str, item: str) -> list[NewEvent]:
    """l.766: "Commodities and other treasure must be returned to civilization in
    Inventory Slots before they can be converted into (non-Inventoried) Cash dice"."""
    state.require("coeac")
    character = find_character(state, name)
    session = state.session
    if session is not None and session.is_activated(character.name):
        raise RuleRefused(f"{character.name} is out on session {session.number}'s expedition: treasure becomes "
                          "Cash once it is back in civilization (004 l.766)")
    goods = carried(state, character, item)
    if not goods.cash:
        raise RuleRefused(f"{goods.name} has no worth in Cash on record: sell it with `tally sell` instead")
    room_check(character, tuple(i for i in state.world.inventory.of(character.name) if i is not goods))
    return [NewEvent(character_stream(character.name), CommodityConverted(
        character=character.name, item=goods.name, cash=goods.cash), game_time=state.today)]


def cash_in(store: Store, campaign: Optional[str], name: str, item: str, *, actor: str,
            game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    return record(store, campaign, actor, lambda ctx: commodity_converted(state_of(ctx), name, item),
                  game_date=game_date, ruling=ruling)[0]


def handed_over(state: State, giver: str, receiver: str, *, cash: int = 0, items: Sequence[str] = (),
                why: str) -> list[NewEvent]:
    """One character hands another Cash and items, both in the same place."""
    state.require("coeac")
    source, target = find_character(state, giver), find_character(state, receiver)
    if key(source.name) == key(target.name):
        raise BadInput("a character cannot give to themselves")
    session = state.session
    if session is not None and session.is_activated(source.name) != session.is_activated(target.name):
        away, home = (source, target) if session.is_activated(source.name) else (target, source)
        raise RuleRefused(f"{away.name} is out on session {session.number}'s expedition and {home.name} is not: "
                          "they cannot hand anything over")
    if cash < 0:
        raise BadInput("--cash cannot be negative")
    if not cash and not items:
        raise BadInput("give --cash N, --item NAME, or both")
    if cash > source.cash:
        raise RuleRefused(f"{source.name} has {source.cash} Cash and cannot give {cash}")
    moving = [carried(state, source, name) for name in items]
    if len({key(i.name) for i in moving}) != len(moving):
        raise BadInput("an item is named twice")
    kept = list(state.world.inventory.of(source.name))
    for item in moving:  # one of each named, the first of two alike
        kept.pop(next(n for n, i in enumerate(kept) if i is item))
    room_check(source, tuple(kept))
    room_check(target, state.world.inventory.of(target.name) + tuple(moving))
    events = []
    if cash:
        events.append(CashGiven(character=source.name, to=target.name, amount=cash, why=why))
    events += [ItemGiven(character=source.name, to=target.name, item=i.name, why=why) for i in moving]
    return [NewEvent(character_stream(source.name), e, game_time=state.today) for e in events]


def give(store: Store, campaign: Optional[str], giver: str, receiver: str, *, cash: int = 0,
         items: Sequence[str] = (), why: str, actor: str, game_date: Optional[str] = None,
         ruling: Optional[str] = None) -> list[Envelope]:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: handed_over(state_of(ctx), giver, receiver, cash=cash,
                                                                  items=items, why=why),
                  game_date=game_date, ruling=ruling)
