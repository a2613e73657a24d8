"""Down and Out (004 l.99-114): the roll and every consequence, as events."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger import settings
from commands.base import acting, character_stream, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.coeac import (DownAndOutRolled, GearBroken, MaxHpChanged, MedicalAidRolled, SaveLost,
                                 SkillReduced)
from ledger.events.stable import BoonGained, CharacterDied
from ledger.rules import coeac
from ledger.store import Store
from ledger.names import key
from projections.stable import Character


def down_and_out_table(batch: Batch, character: Character, why: str = "Down and Out") -> bool:
    """Roll 2d6 on the table and add its consequences; True if the character died."""
    name, stream = character.name, character_stream(character.name)
    roll, _, total = batch.roll("2d6", character=name, why=why)
    result = coeac.DOWN_AND_OUT[total]
    rolled = batch.add(stream, DownAndOutRolled(character=name, total=total, result=result), cause=roll)
    if result == "boon":
        batch.add(stream, BoonGained(character=name, reason="down-and-out"), cause=rolled)
    elif result in ("max_hp_up", "max_hp_down"):
        delta = 1 if result == "max_hp_up" else -1
        batch.add(stream, MaxHpChanged(character=name, delta=delta, reason=coeac.DOWN_AND_OUT_WORDS[result]),
                  cause=rolled)
        if character.max_hp is not None and character.max_hp + delta <= 0:
            batch.add(stream, CharacterDied(character=name, cause="maximum HP reduced to 0 (004 l.86)"), cause=rolled)
            return True
    elif result == "save_lost":
        _lower(batch, character, rolled, "saves", coeac.SAVES, 1, "Trauma: which Save")
    elif result == "skills_lost":
        _lower(batch, character, rolled, "skills", coeac.SKILLS, 2, "Impairment: which Skill")
    elif result == "gear_broken":
        _break_gear(batch, character, rolled)
    elif result == "death":
        batch.add(stream, CharacterDied(character=name, cause=f"Down and Out: rolled {total}"), cause=rolled)
        return True
    return False


BROKEN_GEAR = 3  # l.107: "Three random items break (Artifacts have 50% chance to Save)"


def _break_gear(batch: Batch, character: Character, rolled) -> None:
    """Three items picked at random from the inventory, in the order it was
    filled (1dN over those left; fewer carried, all of them); each artifact
    among them rolls 1d6 and saves on 4-6, a Success (l.19)."""
    name = character.name
    left = list(batch.state.world.inventory.of(name))
    picked, cause = [], rolled
    for _ in range(min(BROKEN_GEAR, len(left))):
        if len(left) > 1:
            cause, _, face = batch.roll(f"1d{len(left)}", character=name, why="Broken Gear: which item")
            picked.append(left.pop(face - 1))
        else:
            picked.append(left.pop())
    broken, saved = [], []
    for item in picked:
        if item.artifact:
            cause, _, face = batch.roll("1d6", character=name, why=f"Broken Gear: {item.name} is an artifact")
            if face >= 4:
                saved.append(item.name)
                continue
        broken.append(item.name)
    batch.add(character_stream(name), GearBroken(
        character=name, count=BROKEN_GEAR, broken=broken, saved=saved,
        note="three random items break; artifacts save on 50%"), cause=cause)


def _lower(batch: Batch, character: Character, rolled, field: str, names: tuple[str, ...], count: int,
           why: str) -> None:
    """Trauma (one random Save) and Impairment (two random Skills), l.105, l.109:
    each pick rolls 1dN over the candidates still open, in the seed's order.
    Under trauma_pick ``rated`` the candidates are those rated 1 or more (the
    seed is silent on a 0); a lone candidate needs no roll, and when none is
    left the event says so with no Save or Skill named."""
    pick = settings.in_force(batch.state.campaign.settings, "trauma_pick")
    ratings = getattr(character, field)
    remaining = [n for n in names if pick == "any" or ratings.get(n, 0) > 0]
    model, label = (SaveLost, "save") if field == "saves" else (SkillReduced, "skill")
    for _ in range(count):
        among, chosen, cause = list(remaining), None, rolled
        if len(remaining) > 1:
            cause, _, face = batch.roll(f"1d{len(remaining)}", character=character.name, why=why)
            chosen = remaining.pop(face - 1)
        elif remaining:
            chosen = remaining.pop()
        batch.add(character_stream(character.name), model(
            character=character.name, before=ratings.get(chosen, 0) if chosen else 0, pick=pick, among=among,
            **{label: chosen}), cause=cause)


AID_OB = 3  # l.100: "If you receive medical aid by the end of the scene (Medicine Ob 3)"


def down_and_out(state: State, name: str, dice: Dice, *, aid_by: Optional[str] = None,
                 aid_bonus: int = 0) -> list[NewEvent]:
    """The Down and Out table; with ``aid_by``, first the helper's Medicine test
    (l.100), and the table only if it passes."""
    state.require("coeac")
    batch = Batch(state, dice)
    character = find_character(state, name)
    if aid_by is not None and not _aided(state, batch, character, aid_by, aid_bonus):
        return batch.done()
    down_and_out_table(batch, character)
    return batch.done()


def roll_down_and_out(store: Store, campaign: Optional[str], name: str, *, actor: str,
                      hand: Optional[Sequence[int]] = None, aid_by: Optional[str] = None, aid_bonus: int = 0,
                      game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    return record(store, campaign, actor, lambda ctx: down_and_out(
        state_of(ctx), name, dice_of(ctx, hand), aid_by=aid_by, aid_bonus=aid_bonus),
        game_date=game_date, ruling=ruling)


def _aided(state: State, batch: Batch, character: Character, aid_by: str, bonus: int) -> bool:
    """The helper's Medicine test: 2 dice plus the rating (l.18), plus bonus or
    penalty dice (l.38), against Ob 3. Recorded whatever the result."""
    helper = acting(state, aid_by)
    if key(helper.name) == key(character.name):
        raise RuleRefused(f"{character.name} is down and out and cannot give medical aid to themselves (004 l.100)")
    if character.hp is not None and character.hp > 0:
        raise RuleRefused(f"{character.name} has {character.hp} HP: medical aid is for a character down and out "
                          "at 0 HP (004 l.100)")
    if helper.hp == 0:  # l.100: "can do little other than writhe in pain and compress your wounds"
        raise RuleRefused(f"{helper.name} is down and out at 0 HP and can give no medical aid (004 l.100: "
                          "\"can do little other than writhe in pain\")")
    if helper.name in character.aid_failed_by:  # l.25: "The results of the roll stand unless the situation
        # drastically changes"; a change to the character's HP or a roll on the table clears the list
        raise RuleRefused(f"{helper.name}'s medical aid for {character.name} failed and stands (004 l.25, Let It "
                          "Ride): another helper may try before the scene ends")
    medicine = helper.skills.get("Medicine", 0)
    pool = 2 + medicine + bonus
    if pool < 1:
        raise BadInput(f"a penalty of {-bonus} leaves {helper.name} no dice to roll")
    if pool < AID_OB:  # a roll that cannot pass decides nothing (l.21: successes against the Ob)
        raise RuleRefused(f"{helper.name}'s {pool} dice cannot reach Medicine Ob {AID_OB} (004 l.100): the aid "
                          "cannot pass; bonus dice (--aid-bonus) or another helper")
    roll, _, successes = batch.roll(f"{pool}{coeac.POOL}", character=helper.name,
                                    why=f"medical aid for {character.name}, Medicine Ob {AID_OB}")
    passed = successes >= AID_OB
    batch.add(character_stream(character.name), MedicalAidRolled(
        character=character.name, by=helper.name, medicine=medicine, bonus=bonus, pool=pool, ob=AID_OB,
        successes=successes, succeeded=passed), cause=roll)
    return passed
