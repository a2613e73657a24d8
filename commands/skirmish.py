"""The skirmish campaign rules (seed 003 l.105-138, l.311-348, l.421-435)."""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

from commands.base import character_stream, clean_name, clean_text, find_character, record
from projections.reading import Context
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.dice import check
from ledger.dice.expression import parse
from ledger.events.dice import RollChecked
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.skirmish import (
    ClothingWorn, HealingAttempted, LuckChanged, OpenWoundChecked, RenownChanged, SkirmishLevelSet,
    SkirmishSkillSet, SkirmishStatSet, WoundRolled,
)
from ledger.events.stable import CharacterDied
from ledger.rules import skirmish as rules
from ledger.settings import in_force
from ledger.names import key


def skirmisher(state: State, name: str, active: bool = True):
    state.require("skirmish")
    character = find_character(state, name, active=active)
    return character.name, state.world.skirmish.of(character.name)


def skills_of(state: State, character: str) -> dict[str, int]:
    """Skills given at creation and those set since."""
    return state.world.skirmish.of(character).all_skills(state.world.stable.character(character).skills)


def start_skirmisher(state: State, batch: Batch, character: str, skills: dict[str, int]) -> None:
    """A new character: the skills it starts with fit level 1 (l.322, l.348), and its starting luck."""
    for skill, rating in skills.items():
        if rating not in rules.SKILL_LEVELS:
            raise BadInput(f"skill {skill} {rating}: a skill's level is 1 to 6 (003 l.348)")
    problem = rules.beyond_level({}, skills, 1, state.campaign.settings)
    if problem:
        raise RuleRefused(f"{character} would start with {problem}")
    starting_luck(state, batch, character)


def starting_luck(state: State, batch: Batch, character: str) -> None:
    start, cap = int(state.campaign.settings["luck_start"]), int(state.campaign.settings["luck_cap"])
    if start:
        batch.add(character_stream(character), LuckChanged(character=character, delta=min(start, cap),
                                                           reason="start", cap=cap))


def refresh_luck(state: State, batch: Batch, character: str) -> None:
    """Setting luck_refresh=session: back up to the starting luck at session close."""
    start, cap = int(state.campaign.settings["luck_start"]), int(state.campaign.settings["luck_cap"])
    held = state.world.skirmish.of(character).luck
    target = min(start, cap)
    if held < target:
        batch.add(character_stream(character), LuckChanged(character=character, delta=target - held,
                                                           reason="regained", cap=cap))


def spend_luck(store, campaign, name: str, *, mode: str, why: str, actor: str, roll: Optional[str] = None,
               expression: Optional[str] = None, hand: Optional[Sequence[int]] = None,
               game_date: Optional[str] = None, ruling: Optional[str] = None):
    """l.313: a luck point re-rolls, or forces the opponent to re-roll, a roll:
    a logged one (``roll``: its position, or ``last``) or one made off the
    ledger (``expression``). The re-roll is rolled here, derived from the
    open epoch or from hand faces, and the luck event's cause is the re-roll."""
    why = clean_text(why, "--why")
    if mode not in ("reroll", "force-reroll"):
        raise BadInput("--mode is reroll (your own roll) or force-reroll (the opponent's)")
    if (roll is None) == (expression is None):
        raise BadInput("say which roll to re-roll: --roll POSITION (or last) for a logged roll, "
                       "or --expr 2d6 for one rolled off the ledger")
    if expression is not None:
        parse(expression)

    def decide(ctx: Context) -> list[NewEvent]:
        # not a function of the State alone: the roll re-rolled is found among the epoch's logged rolls
        character, s = skirmisher(state_of(ctx), name)
        if s.luck < 1:
            raise RuleRefused(f"{character} has no luck points left")
        rerolls = in_force(ctx.campaign.settings, "luck_rerolls")
        target = rerollable(ctx, roll, character, mode, rerolls) if roll is not None else None
        if target is not None:
            text, whose = target.payload["expression"], target.payload["character"]
            about = f"luck re-roll of roll {target.position}"
        else:
            text, whose = expression, character if mode == "reroll" else None
            about = "luck re-roll of a roll made off the ledger"
        batch = Batch(ctx, dice_of(ctx, hand))
        rerolled, _, total = batch.roll(text, character=whose, why=f"{about} ({character}, 003 l.313): {why}")
        if target is not None and target.payload.get("check"):
            _checked_as(batch, rerolled, target.payload["check"], total)
        batch.add(character_stream(character), LuckChanged(
            character=character, delta=-1, reason="spent", cap=int(ctx.campaign.settings["luck_cap"]),
            mode=mode.replace("-", "_"), roll=target.position if target else None, rerolls=rerolls), cause=rerolled)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def _checked_as(batch: Batch, rerolled, first: dict, total: int) -> None:
    """003 l.313: a luck point rerolls the test itself, so the re-roll passes or fails against the target
    the first roll was checked against."""
    aim = check.Target(first["against"], first["target"], first.get("epic"))
    new = batch.events[rerolled.index]
    batch.events[rerolled.index] = replace(new, event=new.event.model_copy(
        update={"check": RollChecked(**aim.result(total))}))


def rerollable(ctx: Context, which: str, character: str, mode: str, rerolls: str) -> Envelope:
    """The logged roll a luck point may re-roll: one of the open epoch's plain
    rolls (nothing recorded follows from it), made by the character (reroll)
    or against them (force-reroll), not re-rolled already, and — under
    luck_rerolls=once — not itself a re-roll."""
    epoch = ctx.epoch
    rolls = epoch.rolls if epoch is not None else ()
    if which.strip().lower() == "last":
        if not rolls:
            raise NotFound("no roll yet in this dice epoch to re-roll")
        position = rolls[-1]
    else:
        try:
            position = int(which)
        except ValueError:
            raise BadInput(f"--roll takes a roll's position or last, not {which!r}") from None
    target = ctx.event(position)
    if target is None or target.type != "dice.rolled":
        raise NotFound(f"there is no roll at position {position} to re-roll")
    if position not in rolls:
        raise RuleRefused(f"roll {position} was made in an earlier dice epoch: luck re-rolls a roll of this one")
    later = ctx.events(after=position)
    withdrawn = {e.payload["target"] for e in later if e.type == "ledger.voided"}
    later = [e for e in later if e.position not in withdrawn]
    if position in withdrawn:
        raise RuleRefused(f"roll {position} was voided")
    rolled_for = target.payload["character"]
    if rolled_for is not None and mode == "reroll" and key(rolled_for) != key(character):
        raise RuleRefused(f"roll {position} was {rolled_for}'s: {character} re-rolls their own rolls, or makes an "
                          "opponent re-roll one made against them with --mode force-reroll (003 l.315-317)")
    if rolled_for is not None and mode == "force-reroll" and key(rolled_for) == key(character):
        raise RuleRefused(f"roll {position} was {character}'s own: re-roll it with --mode reroll")
    spent = [e for e in later if e.type == "luck.changed" and e.payload["reason"] == "spent"]
    again = next((e for e in spent if e.payload["roll"] == position), None)
    if again is not None:
        raise RuleRefused(f"roll {position} was re-rolled already (event {again.position}): re-roll that re-roll, "
                          "if anything")
    if rerolls == "once" and any(e.cause == position for e in spent):
        raise RuleRefused(f"roll {position} is itself a luck re-roll, and it stands (setting luck_rerolls=once)")
    follows = next((e for e in later if e.cause == position and e.type != "luck.changed"), None)
    if follows is not None:
        raise RuleRefused(f"roll {position} decided event {follows.position} ({follows.type}): luck re-rolls a "
                          "plain roll — nerve, shooting, parrying, striking, wounding or skill (003 l.313-318); "
                          "void what followed from it instead")
    return target


def luck_regained(state: State, name: str, amount: int) -> list[NewEvent]:
    character, s = skirmisher(state, name)
    cap = int(state.campaign.settings["luck_cap"])
    if amount < 1:
        raise BadInput("regain at least 1 luck point")
    if s.luck >= cap:
        raise RuleRefused(f"{character} already holds {s.luck} luck, the cap (setting luck_cap)")
    # the cap holds what is regained: the event records the points actually gained
    return [NewEvent(character_stream(character), LuckChanged(
        character=character, delta=min(amount, cap - s.luck), reason="regained", cap=cap), game_time=state.today)]


def regain_luck(store, campaign, name: str, amount: int, *, actor: str,
                game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: luck_regained(state_of(ctx), name, amount),
                  game_date=game_date, ruling=ruling)


def level_set(state: State, name: str, level: int, why: str) -> list[NewEvent]:
    character, s = skirmisher(state, name)
    if level < 1:
        raise BadInput("a character's level is at least 1 (003 l.320)")
    if level == s.level:
        raise RuleRefused(f"{character} is already level {level}")
    settings = state.campaign.settings
    problem = rules.beyond_level(s.stats, skills_of(state, character), level, settings, from_level=s.level)
    if problem:
        raise RuleRefused(f"at level {level} {character} would have {problem}")
    return [NewEvent(character_stream(character), SkirmishLevelSet(
        character=character, level=level, why=why, stat_cap=rules.stat_cap(settings, level),
        skill_allowance=rules.skill_allowance(settings, level)), game_time=state.today)]


def set_level(store, campaign, name: str, level: int, *, why: str, actor: str,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: level_set(state_of(ctx), name, level, why),
                  game_date=game_date, ruling=ruling)


def stat_set(state: State, name: str, stat: str, value: int, why: str) -> list[NewEvent]:
    """A hero stat, within the cap the character's level sets (l.322; setting stat_caps)."""
    character, s = skirmisher(state, name)
    proper = rules.hero_stat(stat)
    if proper is None:
        raise BadInput(f"unknown hero stat {stat!r}: choose from "
                       + ", ".join(f"{n} ({short})" for n, short in rules.HERO_STATS.items()))
    if value < 0:
        raise BadInput(f"{proper} cannot be negative")
    problem = rules.beyond_level({proper: value}, {}, s.level, state.campaign.settings)
    if problem:
        raise RuleRefused(f"{character} is level {s.level}: {problem}")
    return [NewEvent(character_stream(character), SkirmishStatSet(
        character=character, stat=proper, value=value, level=s.level,
        cap=None if proper in rules.UNCAPPED else rules.stat_cap(state.campaign.settings, s.level), why=why),
        game_time=state.today)]


def set_stat(store, campaign, name: str, stat: str, value: int, *, why: str, actor: str,
             game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why") if why else ""
    return record(store, campaign, actor, lambda ctx: stat_set(state_of(ctx), name, stat, value, why),
                  game_date=game_date, ruling=ruling)


def skill_set(state: State, name: str, skill: str, rating: int, why: str) -> list[NewEvent]:
    """A skill and its level (1-6, l.348), within the number of different
    skills the character's level allows (l.322; setting skill_allowance)."""
    character, s = skirmisher(state, name)
    if rating not in rules.SKILL_LEVELS:
        raise BadInput(f"a skill's level is 1 to 6 (003 l.348), not {rating}")
    held = skills_of(state, character)
    proper = next((k for k in held if key(k) == key(skill)), skill)
    if held.get(proper) == rating:
        raise RuleRefused(f"{character}'s {proper} is already {rating}")
    if proper not in held:  # a better rating of a skill held takes no more of the allowance
        problem = rules.beyond_level({}, {**held, proper: rating}, s.level, state.campaign.settings)
        if problem:
            raise RuleRefused(f"{character} is level {s.level} and would hold {problem}")
    return [NewEvent(character_stream(character), SkirmishSkillSet(
        character=character, skill=proper, rating=rating, level=s.level,
        allowance=rules.skill_allowance(state.campaign.settings, s.level), why=why), game_time=state.today)]


def set_skill(store, campaign, name: str, skill: str, rating: int, *, why: str, actor: str,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    skill = clean_name(skill, "the skill")
    why = clean_text(why, "--why") if why else ""
    return record(store, campaign, actor, lambda ctx: skill_set(state_of(ctx), name, skill, rating, why),
                  game_date=game_date, ruling=ruling)


def _wound_roll(batch: Batch, character: str, number: int) -> None:
    roll, _, total = batch.roll("2d6", character=character, why="wound roll (003 l.120)")
    batch.add(character_stream(character), WoundRolled(character=character, wound=number, total=total,
                                                       result=rules.wound_result(total)), cause=roll)


def wounded(state: State, name: str, dice: Dice) -> list[NewEvent]:
    """A trooper unable to fight on takes a wound roll: 2d6 on the wound table (003 l.122-128)."""
    character, s = skirmisher(state, name)
    batch = Batch(state, dice)
    _wound_roll(batch, character, len(s.wounds) + 1)
    return batch.done()


def wound(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: wounded(state_of(ctx), name, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


def healing_attempt(state: State, name: str, number: int, healer: str, dice: Dice, *,
                    skill: Optional[int] = None) -> list[NewEvent]:
    """l.132-138: a healer with healing skill rolls 2d6 plus the skill's bonus
    (l.348, setting skill_bonus); a natural 2 is a mistake whatever the bonus."""
    character, s = skirmisher(state, name)
    target = next((w for w in s.wounds if w["number"] == number), None)
    if target is None:
        raise NotFound(f"{character} has no wound number {number}")
    if target["state"] != "unhealed":
        raise RuleRefused(f"{character}'s wound {number} is already healed")
    who, rating = healing_skill(state, healer, skill)
    ladder = in_force(state.campaign.settings, "skill_bonus")
    bonus = rules.SKILL_BONUS[ladder][rating]
    batch = Batch(state, dice)
    roll, faces, natural = batch.roll("2d6", character=character, why=f"{who} heals wound {number}")
    total = natural + bonus
    result = rules.healing_result(natural, total)
    batch.add(character_stream(character), HealingAttempted(
        character=character, wound=number, natural=natural, bonus=bonus, total=total, result=result,
        healer=who, skill=rating, ladder=ladder), cause=roll)
    if result == "mistake":  # l.134: roll again on the wound table
        _wound_roll(batch, character, len(s.wounds) + 1)
    return batch.done()


def heal(store, campaign, name: str, number: int, *, healer: str, actor: str, skill: Optional[int] = None,
         hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    healer = clean_name(healer, "--healer")
    return record(store, campaign, actor, lambda ctx: healing_attempt(
        state_of(ctx), name, number, healer, dice_of(ctx, hand), skill=skill), game_date=game_date, ruling=ruling)


def healing_skill(state: State, healer: str, stated: Optional[int]) -> tuple[str, int]:
    """The healer's name and Healing skill level: a character's as recorded, or
    the one stated for a healer who is not a character (a surgeon, a wise woman)."""
    found = state.world.stable.character(healer)
    if found is None:
        if stated is None:
            raise BadInput(f"{healer} is not a character here: give their healing skill with --skill N (1-6)")
        if stated not in rules.SKILL_LEVELS:
            raise BadInput(f"a skill's level is 1 to 6 (003 l.348), not {stated}")
        return healer, stated
    if stated is not None:
        raise BadInput(f"{found.name}'s healing skill is on the ledger: drop --skill")
    if found.status != "active":
        raise RuleRefused(f"{found.name} is {found.status} and heals no one")
    rating = next((r for k, r in skills_of(state, found.name).items() if key(k) == key(rules.HEALING)), None)
    if rating is None:
        raise RuleRefused(f"{found.name} has no {rules.HEALING} skill: only a character with healing skill may "
                          "roll on the healing table (003 l.132)")
    return found.name, rating


def open_wounds_checked(state: State, name: str, dice: Dice) -> list[NewEvent]:
    """Each open wound not yet healed: a d6, and death on a 1 (003 l.124)."""
    character, s = skirmisher(state, name)
    open_wounds = [w for w in s.wounds if w["result"] == "open" and w["state"] == "unhealed"]
    if not open_wounds:
        raise RuleRefused(f"{character} has no open wound to check")
    batch = Batch(state, dice)
    for w in open_wounds:  # l.124: "roll a d6 and die on a 1"
        roll, _, die = batch.roll("1d6", character=character, why=f"open wound {w['number']}")
        batch.add(character_stream(character), OpenWoundChecked(character=character, wound=w["number"], die=die,
                                                                 died=die == 1), cause=roll)
        if die == 1:
            batch.add(character_stream(character), CharacterDied(character=character,
                                                                 cause=f"open wound {w['number']} (003 l.124)"))
            break
    return batch.done()


def check_open_wounds(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
                      game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor,
                  lambda ctx: open_wounds_checked(state_of(ctx), name, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


def renown_change(state: State, name: str, delta: int, why: str) -> list[NewEvent]:
    character, _ = skirmisher(state, name)
    if delta == 0:
        raise BadInput("a renown change of 0 changes nothing")
    return [NewEvent(character_stream(character), RenownChanged(character=character, delta=delta, why=why),
                     game_time=state.today)]


def change_renown(store, campaign, name: str, delta: int, *, why: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: renown_change(state_of(ctx), name, delta, why),
                  game_date=game_date, ruling=ruling)


def clothing_worn(state: State, name: str, clothing: str) -> list[NewEvent]:
    character, _ = skirmisher(state, name)
    proper = rules.clothing(clothing)
    if proper is None:
        raise BadInput(f"unknown clothing {clothing!r}: choose from {', '.join(rules.CLOTHING)}")
    worn = rules.CLOTHING[proper]
    return [NewEvent(character_stream(character), ClothingWorn(
        character=character, clothing=proper, renown_modifier=worn["renown"], movement_modifier=worn["movement"],
        deadliness_modifier=worn["deadliness"]), game_time=state.today)]


def wear(store, campaign, name: str, clothing: str, *, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: clothing_worn(state_of(ctx), name, clothing),
                  game_date=game_date, ruling=ruling)
