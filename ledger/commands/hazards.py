"""Down and Out (004 l.99-114): the roll and every consequence, as events."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger.commands.base import Context, character_stream, find_character, record
from ledger.commands.batch import Batch
from ledger.envelope import Envelope, NewEvent
from ledger.events.coeac import DownAndOutRolled, GearBroken, MaxHpChanged, SaveLost, SkillReduced
from ledger.events.stable import BoonGained, CharacterDied
from ledger.rules import coeac
from ledger.store import Store
from projections.stable import Character


def down_and_out(batch: Batch, character: Character, why: str = "Down and Out") -> bool:
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
        pick, _, face = batch.roll(f"1d{len(coeac.SAVES)}", character=name, why="Trauma: which Save")
        save = coeac.SAVES[face - 1]
        before = character.saves.get(save, 0)
        batch.add(stream, SaveLost(character=name, save=save, before=before), cause=pick)
    elif result == "skills_lost":
        remaining = list(coeac.SKILLS)
        for _ in range(2):  # two different Skills
            pick, _, face = batch.roll(f"1d{len(remaining)}", character=name, why="Impairment: which Skill")
            skill = remaining.pop(face - 1)
            before = character.skills.get(skill, 0)
            batch.add(stream, SkillReduced(character=name, skill=skill, before=before),
                      cause=pick)
    elif result == "gear_broken":
        batch.add(stream, GearBroken(character=name, items=3,
                                     note="three random items break; artifacts save on 50%"), cause=rolled)
    elif result == "death":
        batch.add(stream, CharacterDied(character=name, cause=f"Down and Out: rolled {total}"), cause=rolled)
        return True
    return False


def roll_down_and_out(store: Store, campaign: Optional[str], name: str, *, actor: str,
                      hand: Optional[Sequence[int]] = None,
                      game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("coeac")
        batch = Batch(ctx, hand)
        down_and_out(batch, find_character(ctx, name))
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
