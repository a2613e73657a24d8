"""Skill rolls, expertise and hit dice (seed 002 l.71-76, l.92-95, l.160-195):
an adventurer's resources, spent in play and restored in safe time."""

from __future__ import annotations

from typing import Optional, Sequence

from commands.base import character_stream, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from commands.xp import in_safe_time
from ledger.envelope import NewEvent, Pending
from ledger.errors import BadInput, RuleRefused
from ledger.events.xp import AttributesSet, ExpertiseGained, HitDiceRestored, HitDiceSpent, SkillRolled
from ledger.rules import xp as rules
from ledger.text import LABEL_LIMIT
from projections.xp import Progress, hit_dice

MAX_MODIFIER = 20  # attribute modifiers run -3 to +3 (l.184); encumbrance and the like add a few more


def _adventurer(state: State, name: str) -> tuple[str, Progress]:
    state.require("xp")
    character = find_character(state, name)
    return character.name, state.world.xp.of(character.name)


def attribute_named(text: str) -> str:
    attribute = text.strip().upper()
    if attribute not in rules.ATTRIBUTES:
        raise BadInput(f"{text!r} is not an attribute: one of {', '.join(rules.ATTRIBUTES)} (002 l.22-23)")
    return attribute


def _left(state: State, character: str) -> int:
    return hit_dice(state.world, character)[1]


def _no_hit_dice(state: State, character: str, p: Progress) -> RuleRefused:
    held = hit_dice(state.world, character)[0]
    return RuleRefused(f"{character} has {_left(state, character)} hit dice left ({held} held at level {p.level}, "
                       f"{p.hd_spent} spent): "
                       "they come back in safe time, or one a turn on a CON roll (`tally hd restore`)")


def _skill_roll(state: State, batch: Batch, character: str, progress: Progress, *, attribute: str, modifier: int,
                expertise: Optional[str], hit_die: bool, why: str) -> tuple[Pending, str]:
    """Roll and record one skill roll; its event and its result."""
    if abs(modifier) > MAX_MODIFIER:
        raise BadInput(f"--mod {modifier} is out of range: a skill roll's modifiers add up to -{MAX_MODIFIER} "
                       f"to +{MAX_MODIFIER}")
    area = None
    if expertise is not None:
        area = progress.area(expertise)
        if area is None:
            known = ", ".join(a for a, _ in progress.expertise) or "none yet"
            raise RuleRefused(f"{character} has no expertise in {expertise!r} (areas: {known}); "
                              f"`tally expertise add {character} AREA --attribute ATTR`")
        if area[1] != attribute:
            raise RuleRefused(f"{character}'s expertise in {area[0]} relates to {area[1]} only, not {attribute} "
                              "(002 l.95: \"once it's set, it's set\")")
        if state.period in progress.expertise_periods:
            raise RuleRefused(f"{character} has already called on expertise in this {state.period.split()[0]}: "
                              "once per session (002 l.94)")
    if hit_die and _left(state, character) < 1:
        raise _no_hit_dice(state, character, progress)
    expression = rules.EXPERTISE_DICE if area else rules.SKILL_DICE
    roll, _, natural = batch.roll(expression, character=character, why=f"skill roll, {attribute}: {why}")
    total = rules.skill_total(natural, modifier + (1 if hit_die else 0))
    result = rules.skill_result(total)
    stream = character_stream(character)
    rolled = batch.add(stream, SkillRolled(
        character=character, attribute=attribute, modifier=modifier, expertise=area[0] if area else None,
        hit_die=hit_die, natural=natural, total=total, result=result, why=why, period=state.period), cause=roll)
    if hit_die:  # l.75: "A hit dice can be expended to add +1 to any other roll"
        batch.add(stream, HitDiceSpent(character=character, count=1, on="roll", why=f"+1 to a skill roll: {why}",
                                       left=_left(state, character)), cause=rolled)
    return rolled, result


def skill_roll(state: State, name: str, attribute: str, why: str, dice: Dice, *, modifier: int = 0,
               expertise: Optional[str] = None, hit_die: bool = False) -> list[NewEvent]:
    """l.160-179: 2D6 + modifiers against the skill table; a 12 grants new expertise."""
    character, progress = _adventurer(state, name)
    batch = Batch(state, dice)
    _skill_roll(state, batch, character, progress, attribute=attribute, modifier=modifier,
                expertise=expertise, hit_die=hit_die, why=why)
    return batch.done()


def skill(store, campaign, name: str, attribute: str, *, why: str, actor: str, modifier: int = 0,
          expertise: Optional[str] = None, hit_die: bool = False, hand: Optional[Sequence[int]] = None,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    attribute = attribute_named(attribute)
    return record(store, campaign, actor, lambda ctx: skill_roll(
        state_of(ctx, period=True), name, attribute, why, dice_of(ctx, hand), modifier=modifier, expertise=expertise,
        hit_die=hit_die), game_date=game_date, ruling=ruling)


def expertise_gained(state: State, name: str, area: str, attribute: str) -> list[NewEvent]:
    """l.94-95, l.105, l.179: the first area, one for each odd level, one for each skill roll of 12."""
    character, progress = _adventurer(state, name)
    if progress.area(area) is not None:
        raise RuleRefused(f"{character} already has expertise in {progress.area(area)[0]}")
    held, claims = len(progress.expertise), progress.expertise_claims
    if held >= claims:
        raise RuleRefused(f"{character} holds {held} area(s) of expertise, all that level {progress.highest} "
                          "allows: another comes with an odd level (3, 5…) or a skill roll of 12 "
                          "(002 l.105, l.179)")
    return [NewEvent(character_stream(character), ExpertiseGained(
        character=character, area=area, attribute=attribute, claims=claims, held=held), game_time=state.today)]


def add_expertise(store, campaign, name: str, area: str, *, attribute: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    area = clean_text(area, "the area of expertise", LABEL_LIMIT)
    attribute = attribute_named(attribute)
    return record(store, campaign, actor, lambda ctx: expertise_gained(state_of(ctx), name, area, attribute),
                  game_date=game_date, ruling=ruling)


def hit_dice_spent(state: State, name: str, count: int, on: str, why: str) -> list[NewEvent]:
    """l.74-76: any number added to a save roll; one for +1 to any other roll."""
    character, progress = _adventurer(state, name)
    if on not in ("save", "roll"):
        raise BadInput(f"--on is save or roll, not {on!r}")
    if count < 1:
        raise BadInput("spend at least 1 hit die")
    if on == "roll" and count > 1:
        raise RuleRefused("one hit die adds +1 to a roll other than a save (002 l.75); "
                          "any number may go to a save roll (--on save)")
    if count > _left(state, character):
        raise _no_hit_dice(state, character, progress)
    return [NewEvent(character_stream(character), HitDiceSpent(
        character=character, count=count, on=on, why=why, left=_left(state, character)), game_time=state.today)]


def spend_hit_dice(store, campaign, name: str, count: int, *, on: str, why: str, actor: str,
                   game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: hit_dice_spent(state_of(ctx), name, count, on, why),
                  game_date=game_date, ruling=ruling)


def hit_dice_restored(state: State, name: str, dice: Dice, *, modifier: int = 0) -> list[NewEvent]:
    """l.194-195: every spent hit die in safe time; on an expedition, one a turn
    of adventure time on a successful CON skill roll."""
    character, progress = _adventurer(state, name)
    if not progress.hd_spent:
        raise RuleRefused(f"{character} has spent no hit dice")
    batch = Batch(state, dice)
    stream = character_stream(character)
    if in_safe_time(state, character):
        if dice.left():  # faces given by hand, and no roll to read them
            raise BadInput("in safe time hit dice come back without a roll: drop --dice")
        batch.add(stream, HitDiceRestored(character=character, count=progress.hd_spent, how="safe_time"))
        return batch.done()
    rolled, result = _skill_roll(state, batch, character, progress, attribute="CON", modifier=modifier,
                                 expertise=None, hit_die=False, why="to restore a hit die")
    if rules.succeeded(result):
        batch.add(stream, HitDiceRestored(character=character, count=1, how="con_roll"), cause=rolled)
    return batch.done()


def restore_hit_dice(store, campaign, name: str, *, actor: str, modifier: int = 0,
                     hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None,
                     ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: hit_dice_restored(
        state_of(ctx, period=True), name, dice_of(ctx, hand), modifier=modifier), game_date=game_date, ruling=ruling)


def attributes_set(state: State, name: str, scores: dict[str, int], why: Optional[str] = None) -> list[NewEvent]:
    """002 l.21-24: six attributes "between 3 and 18"; the sheet's scores give a
    skill roll its modifier (l.25-61, `tally test C DEX`)."""
    character, progress = _adventurer(state, name)
    if not scores:
        raise BadInput("give at least one score, like STR=12,DEX=9")
    named: dict[str, int] = {}
    for text, score in scores.items():
        attribute = rules.ATTRIBUTE_NAMES.get(text.strip().upper(), text.strip().upper())
        attribute = attribute_named(attribute)
        if attribute in named:
            raise BadInput(f"{attribute} is given twice")
        if score not in rules.SCORES:
            raise BadInput(f"{attribute} {score} is out of range: a score is 3 to 18 (002 l.23-24)")
        named[attribute] = score
    before = {a: progress.attributes[a] for a in named if a in progress.attributes}
    return [NewEvent(character_stream(character), AttributesSet(character=character, scores=named, before=before,
                                                                why=why), game_time=state.today)]


def set_attributes(store, campaign, name: str, scores: dict[str, int], *, actor: str, why: Optional[str] = None,
                   game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why") if why is not None else None
    return record(store, campaign, actor, lambda ctx: attributes_set(state_of(ctx), name, scores, why),
                  game_date=game_date, ruling=ruling)
