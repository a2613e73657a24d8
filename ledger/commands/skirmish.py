"""The skirmish campaign rules (seed 003 l.105-138, l.311-348, l.421-433)."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger.commands.base import Context, character_stream, clean_text, find_character, record
from ledger.commands.batch import Batch
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.skirmish import (
    ClothingWorn, HealingAttempted, LuckChanged, OpenWoundChecked, RenownChanged, SkirmishLevelSet, WoundRolled,
)
from ledger.events.stable import CharacterDied
from ledger.rules import skirmish as rules


def skirmisher(ctx: Context, name: str, active: bool = True):
    ctx.require("skirmish")
    character = find_character(ctx, name, active=active)
    return character.name, ctx.world.skirmish.of(character.name)


def starting_luck(ctx: Context, batch: Batch, character: str) -> None:
    start, cap = int(ctx.campaign.settings["luck_start"]), int(ctx.campaign.settings["luck_cap"])
    if start:
        batch.add(character_stream(character), LuckChanged(character=character, delta=min(start, cap),
                                                           reason="start", cap=cap))


def refresh_luck(ctx: Context, batch: Batch, character: str) -> None:
    """Setting luck_refresh=session: back up to the starting luck at session close."""
    start, cap = int(ctx.campaign.settings["luck_start"]), int(ctx.campaign.settings["luck_cap"])
    held = ctx.world.skirmish.of(character).luck
    target = min(start, cap)
    if held < target:
        batch.add(character_stream(character), LuckChanged(character=character, delta=target - held,
                                                           reason="regained", cap=cap))


def spend_luck(store, campaign, name: str, *, mode: str, why: str, actor: str, roll: Optional[int] = None,
               game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        if mode not in ("reroll", "force-reroll"):
            raise BadInput("--mode is reroll (your own roll) or force-reroll (the opponent's)")
        if s.luck < 1:
            raise RuleRefused(f"{character} has no luck points left")
        if roll is not None and getattr(ctx.event(roll), "type", None) != "dice.rolled":
            raise NotFound(f"there is no roll at position {roll} to re-roll")
        return [NewEvent(character_stream(character), LuckChanged(
            character=character, delta=-1, reason="spent", cap=int(ctx.campaign.settings["luck_cap"]),
            mode=mode.replace("-", "_"), roll=roll), game_time=ctx.today, cause=roll)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def regain_luck(store, campaign, name: str, amount: int, *, actor: str,
                game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        cap = int(ctx.campaign.settings["luck_cap"])
        if amount < 1:
            raise BadInput("regain at least 1 luck point")
        if s.luck >= cap:
            raise RuleRefused(f"{character} already holds {s.luck} luck, the cap (setting luck_cap)")
        return [NewEvent(character_stream(character), LuckChanged(
            character=character, delta=amount, reason="regained", cap=cap), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def set_level(store, campaign, name: str, level: int, *, why: str, actor: str,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        if level < 1:
            raise BadInput("a character's level is at least 1 (003 l.320)")
        if level == s.level:
            raise RuleRefused(f"{character} is already level {level}")
        return [NewEvent(character_stream(character), SkirmishLevelSet(character=character, level=level, why=why),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def _wound_roll(batch: Batch, character: str, number: int) -> None:
    roll, _, total = batch.roll("2d6", character=character, why="wound roll (003 l.120)")
    batch.add(character_stream(character), WoundRolled(character=character, wound=number, total=total,
                                                       result=rules.wound_result(total)), cause=roll)


def wound(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        batch = Batch(ctx, hand)
        _wound_roll(batch, character, len(s.wounds) + 1)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def heal(store, campaign, name: str, number: int, *, bonus: int, actor: str,
         hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        target = next((w for w in s.wounds if w["number"] == number), None)
        if target is None:
            raise NotFound(f"{character} has no wound number {number}")
        if target["state"] != "unhealed":
            raise RuleRefused(f"{character}'s wound {number} is already healed")
        batch = Batch(ctx, hand)
        roll, faces, natural = batch.roll("2d6", character=character, why=f"healing wound {number}")
        total = natural + bonus
        result = rules.healing_result(natural, total)
        batch.add(character_stream(character), HealingAttempted(
            character=character, wound=number, natural=natural, bonus=bonus, total=total, result=result), cause=roll)
        if result == "mistake":  # l.134: roll again on the wound table
            _wound_roll(batch, character, len(s.wounds) + 1)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def check_open_wounds(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
                      game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = skirmisher(ctx, name)
        open_wounds = [w for w in s.wounds if w["result"] == "open" and w["state"] == "unhealed"]
        if not open_wounds:
            raise RuleRefused(f"{character} has no open wound to check")
        batch = Batch(ctx, hand)
        for w in open_wounds:  # l.124: "roll a d6 and die on a 1"
            roll, _, die = batch.roll("1d6", character=character, why=f"open wound {w['number']}")
            batch.add(character_stream(character), OpenWoundChecked(character=character, wound=w["number"], die=die,
                                                                     died=die == 1), cause=roll)
            if die == 1:
                batch.add(character_stream(character), CharacterDied(character=character,
                                                                     cause=f"open wound {w['number']} (003 l.124)"))
                break
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def change_renown(store, campaign, name: str, delta: int, *, why: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, _ = skirmisher(ctx, name)
        if delta == 0:
            raise BadInput("a renown change of 0 changes nothing")
        return [NewEvent(character_stream(character), RenownChanged(character=character, delta=delta, why=why),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def wear(store, campaign, name: str, clothing: str, *, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, _ = skirmisher(ctx, name)
        proper = rules.clothing(clothing)
        if proper is None:
            raise BadInput(f"unknown clothing {clothing!r}: choose from {', '.join(rules.CLOTHING_RENOWN)}")
        return [NewEvent(character_stream(character), ClothingWorn(
            character=character, clothing=proper, renown_modifier=rules.CLOTHING_RENOWN[proper]), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
