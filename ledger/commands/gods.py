"""Gods (seed 001 l.741-978): adopting one, marks, pleas, crawling prayers,
repentance, sacrifice and automatic punishment."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger.commands.base import Context, character_stream, clean_name, clean_text, find_character, record
from ledger.commands.batch import Batch
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.gods import (
    BlackMarkGiven, CrawlingPrayerMade, GodAdopted, GodsBattled, GreyMarksGiven, PrayerMade, PunishmentChecked,
    RepentanceMade, SacrificeMade, WarningGiven,
)
from ledger.rules import gods
from ledger.text import LABEL_LIMIT
from projections.divine import Standing


def worshipper(ctx: Context, name: str) -> tuple[str, Standing]:
    ctx.require("gods")
    character = find_character(ctx, name)
    standing = ctx.world.divine.of(character.name)
    if standing is None:
        raise RuleRefused(f"{character.name} has adopted no god: `tally god adopt {character.name} NAME --power N`")
    return character.name, standing


def adopt(store, campaign, name: str, god: str, *, power: int, alignment: str, actor: str,
          flatterable: bool = False, sacrifice: str = "unspecified",
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    god = clean_name(god, "the god's name")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("gods")
        character = find_character(ctx, name)
        held = ctx.world.divine.of(character.name)
        if held:
            raise RuleRefused(f"{character.name} already worships {held.god}")
        if not 1 <= power <= 10:
            raise BadInput("a god's power rating is 1 to 10 (001 l.749)")
        return [NewEvent(character_stream(character.name), GodAdopted(
            character=character.name, god=god, power=power, alignment=clean_text(alignment, "--alignment", 20),
            flatterable=flatterable, sacrifice=clean_text(sacrifice, "--sacrifice", LABEL_LIMIT)), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def mark(store, campaign, name: str, *, why: str, actor: str, grey: Optional[int] = None,
         warning: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, standing = worshipper(ctx, name)
        batch = Batch(ctx, hand)
        stream = character_stream(character)
        if warning and grey is not None:
            raise BadInput("a warning sign carries no mark: give --warning or --grey, not both")
        if warning:  # l.773: a thunderbolt, no mark
            batch.add(stream, WarningGiven(character=character, why=why))
            return batch.done()
        if grey is not None:
            if grey < 1:
                raise BadInput("--grey takes a number of marks, at least 1")
            batch.add(stream, GreyMarksGiven(character=character, count=grey, why=why))
            return batch.done()
        black = standing.black + 1
        batch.add(stream, BlackMarkGiven(character=character, why=why))
        threshold = gods.punishment_threshold(standing.power)
        if black >= threshold:  # l.925-929: 50% at the threshold and at every further mark
            roll, _, total = batch.roll("d%", character=character, why="automatic punishment: 50%")
            batch.add(stream, PunishmentChecked(character=character, black=black, threshold=threshold,
                                                roll=total, punished=total <= 50), cause=roll)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def pray(store, campaign, name: str, *, actor: str, life_or_death: bool = False, excessive: bool = False,
         free_hand: bool = False, interference: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        batch = Batch(ctx, hand)
        stream = character_stream(character)
        cell = gods.prayer_chance(s.marks, s.power)
        common = dict(character=character, god=s.god, power=s.power, black=s.black, grey=s.grey,
                      table_chance=cell, excessive=excessive)
        if cell is None:  # X: this god will not answer, whatever the modifiers
            batch.add(stream, PrayerMade(**common, modifiers={}, chance=0, backfire_chance=0,
                                         outcome="unanswerable"))
            return batch.done()
        modifiers = {k: v for k, v in (("life_or_death", gods.LIFE_OR_DEATH if life_or_death else 0),
                                       ("free_hand", gods.FREE_HAND if free_hand else 0),
                                       ("interference", gods.INTERFERENCE if interference else 0),
                                       ("crawling_bonus", s.bonus)) if v}
        chance = min(100, cell + sum(modifiers.values()))
        backfire = gods.backfire_chance(chance) if excessive else 0
        if excessive:  # l.841: "reduced to a half" (rounded down)
            chance //= 2
        roll, _, total = batch.roll("d%", character=character, why=f"prayer to {s.god}, {chance}%")
        result = dict(common, modifiers=modifiers, chance=chance, backfire_chance=backfire)
        if total > chance:
            outcome = "refused"
            if backfire:
                again, _, second = batch.roll("d%", character=character, why=f"backfire, {backfire}%")
                outcome = "backfired" if second <= backfire else "refused"
                roll = again
            batch.add(stream, PrayerMade(**result, outcome=outcome), cause=roll)
            return batch.done()
        base = gods.answer_grade_row(s.marks)[s.power - 1]
        _, _, die = batch.roll("1d6", character=character, why="answer grade: 1-2 down, 5-6 up")
        grade = gods.shifted_grade(base, die)
        inconvenient = None
        if free_hand:
            _, _, form = batch.roll("d%", character=character, why="free hand: 50% inconvenient")
            inconvenient = form <= 50
        prayed = batch.add(stream, PrayerMade(**result, outcome="answered", table_grade=base, grade=grade,
                                              percent=gods.grade_percent(grade), inconvenient=inconvenient),
                           cause=roll)
        if life_or_death:  # l.875: an answered life-or-death prayer brings 5 grey marks
            batch.add(stream, GreyMarksGiven(character=character, count=gods.LIFE_OR_DEATH_GREY_MARKS,
                                             why="life-or-death prayer answered (001 l.875)"), cause=prayed)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def crawl(store, campaign, name: str, *, actor: str, thanks: bool = False,
          hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if not s.flatterable:
            raise RuleRefused(f"{s.god} is not the impressionable type: crawling prayers do not work (001 l.851)")
        batch = Batch(ctx, hand)
        prayers = s.prayers_within(ctx.today)
        cell = gods.crawling_chance(prayers, s.power)
        common = dict(character=character, power=s.power, prayers_last_week=prayers, table_chance=cell,
                      thanks=thanks)
        if cell is None:
            batch.add(character_stream(character), CrawlingPrayerMade(**common, chance=0, accepted=False,
                                                                      effect="none"))
            return batch.done()
        chance = min(100, cell + (gods.THANKS if thanks else 0))
        roll, _, total = batch.roll("d%", character=character, why=f"crawling prayer, {chance}%")
        effect, bonus = "none", 0
        if total <= chance:
            if s.black:
                effect = "removed_black_mark"
            else:  # l.873: no black mark to knock off: +1-10% on a later plea
                _, _, bonus = batch.roll("1d10", character=character, why="crawling bonus")
                effect = "banked_bonus"
        batch.add(character_stream(character), CrawlingPrayerMade(
            **common, chance=chance, accepted=total <= chance, effect=effect, bonus=bonus), cause=roll)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def repent(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if not s.black:
            raise RuleRefused(f"{character} has no black marks to repent")
        batch = Batch(ctx, hand)
        power = s.repentance_power
        needs = gods.repentance_needs(s.black, power)
        common = dict(character=character, black=s.black, power=s.power, effective_power=power, needs=needs)
        if needs is None:
            batch.add(character_stream(character), RepentanceMade(**common, die=None, accepted=False))
            return batch.done()
        roll, _, die = batch.roll("1d6", character=character, why=f"repentance, needs {needs}+")
        batch.add(character_stream(character), RepentanceMade(**common, die=die, accepted=die >= needs),
                  cause=roll)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def sacrifice(store, campaign, name: str, *, why: str, actor: str, marks: int = 1, grey: bool = False,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if marks < 1:
            raise BadInput("--marks is at least 1")
        held = s.grey if grey else s.black
        kind = "grey" if grey else "black"
        if marks > held:
            raise RuleRefused(f"{character} has {held} {kind} mark(s); a sacrifice cannot redeem {marks}")
        return [NewEvent(character_stream(character), SacrificeMade(
            character=character, black=0 if grey else marks, grey=marks if grey else 0, why=why),
            game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


MAX_BATTLE_ROUNDS = 50  # a draw repeats; this only guards a hand-rolled list that never ends


def battle(store, campaign, name: str, opponent: str, *, actor: str, hand: Optional[Sequence[int]] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    """Both sides' pleas were answered: the gods fight it out (001 l.933-962)."""
    def decide(ctx: Context) -> list[NewEvent]:
        character, mine = worshipper(ctx, name)
        other, theirs = worshipper(ctx, opponent)
        if character == other:
            raise BadInput("a god does not battle itself: name two different worshippers")
        needs, their_needs = gods.BATTLE[mine.power][theirs.power - 1], gods.BATTLE[theirs.power][mine.power - 1]
        batch = Batch(ctx, hand)
        rounds, first = [], None
        while len(rounds) < MAX_BATTLE_ROUNDS:
            roll, _, a = batch.roll("d%", character=character, why=f"{mine.god} battles {theirs.god}: > {needs}")
            _, _, b = batch.roll("d%", character=other, why=f"{theirs.god} battles {mine.god}: > {their_needs}")
            first = first or roll
            rounds.append([a, b])
            if (a > needs) != (b > their_needs):
                break
        else:
            raise RuleRefused(f"no winner after {MAX_BATTLE_ROUNDS} rounds")
        won = rounds[-1][0] > needs
        loser = other if won else character
        batch.add(character_stream(character), GodsBattled(
            character=character, opponent=other, god=mine.god, opponent_god=theirs.god, needs=needs,
            opponent_needs=their_needs, rounds=rounds, winner=character if won else other,
            penalty=f"{loser}: A.T. and D.T. -10, regained as fatigue points; may convert to the victor"),
            cause=first)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
