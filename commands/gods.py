"""Gods (seed 001 l.741-978): alignments, adopting a god, marks, pleas,
crawling prayers, repentance, sacrifice, punishment, battles of gods and
conversion."""

from __future__ import annotations

from typing import Optional, Sequence

from commands.base import character_stream, clean_name, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.envelope import NewEvent, Pending
from ledger.errors import BadInput, RuleRefused
from ledger.events.gods import (
    AlignmentChosen, BlackMarkGiven, CrawlingPrayerMade, GodAdopted, GodConverted, GodsBattled, GreyMarksGiven,
    PenaltyRecovered, PrayerMade, PunishmentChecked, PunishmentInflicted, RepentanceMade, SacrificeMade, WarningGiven,
)
from ledger.rules import gods
from ledger.settings import in_force
from ledger.text import LABEL_LIMIT
from projections.gods import Standing


def worshipper(state: State, name: str) -> tuple[str, Standing]:
    state.require("gods")
    character = find_character(state, name)
    standing = state.world.gods.of(character.name)
    if standing is None:
        raise RuleRefused(f"{character.name} has adopted no god: `tally god adopt {character.name} NAME --power N`")
    return character.name, standing


def alignment_named(text: str, what: str) -> str:
    code = gods.alignment(text)
    if code is None:
        raise BadInput(f"{what} {text!r} is not an alignment: a basic alignment 1-7 (good to evil) and a cosmic "
                       "order allegiance A-G (law to chaos), e.g. 2E (001 l.681-688)")
    return code


def alignment_chosen(state: State, name: str, code: str) -> list[NewEvent]:
    """l.671: players choose their characters' alignments."""
    state.require("gods")
    character = find_character(state, name)
    if state.world.gods.alignment_of(character.name) == code:
        raise RuleRefused(f"{character.name}'s alignment is already {code}")
    held = state.world.gods.of(character.name)
    if held is not None and held.alignment != code:
        raise RuleRefused(f"{character.name} worships {held.god} ({held.alignment}): a worshipper keeps its "
                          f"god's alignment (001 l.755); acts out of it earn black marks instead")
    return [NewEvent(character_stream(character.name), AlignmentChosen(character=character.name, alignment=code),
                     game_time=state.today)]


def align(store, campaign, name: str, alignment: str, *, actor: str,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    code = alignment_named(alignment, "the alignment")
    return record(store, campaign, actor, lambda ctx: alignment_chosen(state_of(ctx), name, code),
                  game_date=game_date, ruling=ruling)


def god_adopted(state: State, name: str, god: str, *, power: int, code: str, flatterable: bool,
                sacrifice: str) -> list[NewEvent]:
    """l.755: a character chooses a god of his own alignment."""
    state.require("gods")
    character = find_character(state, name)
    held = state.world.gods.of(character.name)
    if held:
        raise RuleRefused(f"{character.name} already worships {held.god}")
    if not 1 <= power <= 10:
        raise BadInput("a god's power rating is 1 to 10 (001 l.749)")
    own = state.world.gods.alignment_of(character.name)
    if own is None:
        raise RuleRefused(f"{character.name} has no alignment yet: `tally god align {character.name} {code}` "
                          "first (001 l.755: the god's alignment is the character's own)")
    if own != code:
        raise RuleRefused(f"{character.name} is {own} and {god} is {code}: a character chooses a god with the "
                          "same alignment as himself (001 l.755)")
    rule = in_force(state.campaign.settings, "god_adoption")
    refused = gods.adoption_refused(state.world, character.name, rule, state.today)
    if refused:
        raise RuleRefused(refused)
    return [NewEvent(character_stream(character.name), GodAdopted(
        character=character.name, god=god, power=power, alignment=code, flatterable=flatterable,
        sacrifice=clean_text(sacrifice, "--sacrifice", LABEL_LIMIT), character_alignment=own, adoption=rule),
        game_time=state.today)]


def adopt(store, campaign, name: str, god: str, *, power: int, alignment: str, actor: str,
          flatterable: bool = False, sacrifice: str = "unspecified",
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    god = clean_name(god, "the god's name")
    code = alignment_named(alignment, "--alignment")
    return record(store, campaign, actor, lambda ctx: god_adopted(
        state_of(ctx), name, god, power=power, code=code, flatterable=flatterable, sacrifice=sacrifice),
        game_date=game_date, ruling=ruling)


def mark_given(state: State, name: str, why: str, dice: Dice, *, grey: Optional[int] = None,
               warning: bool = False) -> list[NewEvent]:
    """A black mark (and the punishment check it may call for, l.925-929), grey marks, or a warning sign."""
    character, standing = worshipper(state, name)
    batch = Batch(state, dice)
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
    settings = state.campaign.settings
    lasting = in_force(settings, "crawl_bonus") == "until_black_mark"
    batch.add(stream, BlackMarkGiven(character=character, why=why, bonus_lost=standing.bonus if lasting else 0))
    threshold = gods.punishment_threshold(standing.power)
    if black >= threshold:  # l.925-929: 50% at the threshold and at every further mark
        reason, chance = "threshold", gods.PUNISHMENT_CHANCE
    elif standing.probation:  # l.905: acting badly again after repenting, "likely to be punished"
        reason, chance = "relapse", int(in_force(settings, "relapse_punishment"))
    else:
        return batch.done()
    if chance:
        roll, _, total = batch.roll("d%", character=character, why=f"punishment ({reason}): {chance}%")
        batch.add(stream, PunishmentChecked(character=character, black=black, threshold=threshold, roll=total,
                                            punished=total <= chance, reason=reason, chance=chance), cause=roll)
    return batch.done()


def mark(store, campaign, name: str, *, why: str, actor: str, grey: Optional[int] = None,
         warning: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: mark_given(
        state_of(ctx), name, why, dice_of(ctx, hand), grey=grey, warning=warning),
        game_date=game_date, ruling=ruling)


def prayer(state: State, name: str, dice: Dice, *, life_or_death: bool = False, excessive: bool = False,
           free_hand: bool = False, interference: bool = False) -> list[NewEvent]:
    """A plea for aid (l.767-849): answered if a percentile throw does not exceed the table's
    chance for the marks and the god's power, then graded; modifiers, excess and backfire, a
    free hand and another god's interference (l.843-875, l.964-968) as recorded."""
    character, s = worshipper(state, name)
    batch = Batch(state, dice)
    stream = character_stream(character)
    settings = state.campaign.settings
    cell = gods.prayer_chance(s.marks, s.power)
    lifts = in_force(settings, "interference_lifts_x") if cell is None and interference else None
    common = dict(character=character, god=s.god, power=s.power, black=s.black, grey=s.grey,
                  table_chance=cell, excessive=excessive, lifts_x=lifts,
                  rounding=in_force(settings, "excessive_rounding") if excessive else None,
                  crawl_bonus=in_force(settings, "crawl_bonus") if s.bonus else None)
    if cell is None and lifts != "yes":  # X: this god will not answer, whatever the modifiers
        joined, outcome = _joins(batch, character, s, "unanswerable") if interference else (None, "unanswerable")
        batch.add(stream, PrayerMade(**{**common, "crawl_bonus": None}, modifiers={}, chance=0,
                                     backfire_chance=0, outcome=outcome), cause=joined)
        return batch.done()
    modifiers = {k: v for k, v in (("life_or_death", gods.LIFE_OR_DEATH if life_or_death else 0),
                                   ("free_hand", gods.FREE_HAND if free_hand else 0),
                                   ("interference", gods.INTERFERENCE if interference else 0),
                                   ("crawling_bonus", s.bonus)) if v}
    chance = min(100, (cell or 0) + sum(modifiers.values()))
    backfire = gods.backfire_chance(chance) if excessive else 0
    if excessive:  # l.841: "reduced to a half of what it was"
        chance = gods.halved(chance, common["rounding"])
    roll, _, total = batch.roll("d%", character=character, why=f"prayer to {s.god}, {chance}%")
    result = dict(common, modifiers=modifiers, chance=chance, backfire_chance=backfire)
    if total > chance:
        outcome = "refused"
        if backfire:
            again, _, second = batch.roll("d%", character=character, why=f"backfire, {backfire}%")
            outcome = "backfired" if second <= backfire else "refused"
            roll = again
        if outcome == "refused" and interference:
            _, outcome = _joins(batch, character, s, "refused")
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


def pray(store, campaign, name: str, *, actor: str, life_or_death: bool = False, excessive: bool = False,
         free_hand: bool = False, interference: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: prayer(
        state_of(ctx), name, dice_of(ctx, hand), life_or_death=life_or_death, excessive=excessive,
        free_hand=free_hand, interference=interference), game_date=game_date, ruling=ruling)


def _joins(batch: Batch, character: str, s: Standing, otherwise: str) -> tuple[Pending, str]:
    """l.964: another god interfering, "a 30% chance that it will join in of its
    own accord": rolled when the plea itself brings no help."""
    rolled, _, roll = batch.roll("d%", character=character, why=f"{s.god} joins in unasked: {gods.JOINS_UNASKED}%")
    return rolled, "joined" if roll <= gods.JOINS_UNASKED else otherwise


def crawling_prayer(state: State, name: str, dice: Dice, *, thanks: bool = False) -> list[NewEvent]:
    """l.851-873: flattery, for a god who falls for it; accepted, it knocks off a black mark or
    banks 1-10% for a later plea. The chance falls with the prayers made in the last week."""
    character, s = worshipper(state, name)
    if not s.flatterable:
        raise RuleRefused(f"{s.god} is not the impressionable type: crawling prayers do not work (001 l.851)")
    batch = Batch(state, dice)
    prayers = s.prayers_within(state.today)
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
    stacking = in_force(state.campaign.settings, "crawl_stacking")
    batch.add(character_stream(character), CrawlingPrayerMade(
        **common, chance=chance, accepted=total <= chance, effect=effect, bonus=bonus, stacking=stacking), cause=roll)
    return batch.done()


def crawl(store, campaign, name: str, *, actor: str, thanks: bool = False,
          hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: crawling_prayer(state_of(ctx), name, dice_of(ctx, hand),
                                                                      thanks=thanks),
                  game_date=game_date, ruling=ruling)


def repentance(state: State, name: str, dice: Dice) -> list[NewEvent]:
    """l.899-905: a d6 at least the table's number for the black marks and the power clears them all."""
    character, s = worshipper(state, name)
    if not s.black:
        raise RuleRefused(f"{character} has no black marks to repent")
    batch = Batch(state, dice)
    settings = state.campaign.settings
    relapse, marks_rule = in_force(settings, "relapse_power"), in_force(settings, "repentance_marks")
    beyond = in_force(settings, "repentance_beyond_table")
    power, marks = s.repentance_power(relapse), s.repentance_marks(marks_rule)
    needs = gods.repentance_needs(marks, power, beyond)
    common = dict(character=character, black=s.black, grey=s.grey, power=s.power, effective_power=power,
                  needs=needs, marks=marks, marks_rule=marks_rule, beyond=beyond, relapse=relapse)
    if needs is None:
        batch.add(character_stream(character), RepentanceMade(**common, die=None, accepted=False))
        return batch.done()
    roll, _, die = batch.roll("1d6", character=character, why=f"repentance, needs {needs}+")
    batch.add(character_stream(character), RepentanceMade(**common, die=die, accepted=die >= needs),
              cause=roll)
    return batch.done()


def repent(store, campaign, name: str, *, actor: str, hand: Optional[Sequence[int]] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: repentance(state_of(ctx), name, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


def sacrifice_made(state: State, name: str, why: str, *, marks: int = 1, grey: bool = False) -> list[NewEvent]:
    character, s = worshipper(state, name)
    if marks < 1:
        raise BadInput("--marks is at least 1")
    held = s.grey if grey else s.black
    kind = "grey" if grey else "black"
    if marks > held:
        raise RuleRefused(f"{character} has {held} {kind} mark(s); a sacrifice cannot redeem {marks}")
    return [NewEvent(character_stream(character), SacrificeMade(
        character=character, black=0 if grey else marks, grey=marks if grey else 0, why=why),
        game_time=state.today)]


def sacrifice(store, campaign, name: str, *, why: str, actor: str, marks: int = 1, grey: bool = False,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor,
                  lambda ctx: sacrifice_made(state_of(ctx), name, why, marks=marks, grey=grey),
                  game_date=game_date, ruling=ruling)


MAX_BATTLE_ROUNDS = 50  # a draw repeats; this only guards a hand-rolled list that never ends


def battle_of_gods(state: State, name: str, opponent: str, dice: Dice) -> list[NewEvent]:
    """Both sides' pleas were answered: the gods fight it out (001 l.933-962)."""
    character, mine = worshipper(state, name)
    other, theirs = worshipper(state, opponent)
    if character == other:
        raise BadInput("a god does not battle itself: name two different worshippers")
    for who, s in ((character, mine), (other, theirs)):  # l.935: "both pray and get their god's support"
        if s.supported_on(state.today) is None:
            raise RuleRefused(f"{who} has no answered plea today for a battle to be fought over: a battle of "
                              "gods comes when both pray and are answered (001 l.935; `tally god pray`)")
    needs, their_needs = gods.BATTLE[mine.power][theirs.power - 1], gods.BATTLE[theirs.power][mine.power - 1]
    batch = Batch(state, dice)
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
    batch.add(character_stream(character), GodsBattled(
        character=character, opponent=other, god=mine.god, opponent_god=theirs.god, needs=needs,
        opponent_needs=their_needs, rounds=rounds, winner=character if won else other,
        loser=other if won else character, penalty=gods.BATTLE_PENALTY,
        plea=mine.supported_on(state.today), opponent_plea=theirs.supported_on(state.today)), cause=first)
    return batch.done()


def battle(store, campaign, name: str, opponent: str, *, actor: str, hand: Optional[Sequence[int]] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor,
                  lambda ctx: battle_of_gods(state_of(ctx), name, opponent, dice_of(ctx, hand)),
                  game_date=game_date, ruling=ruling)


def conversion(state: State, name: str) -> list[NewEvent]:
    """l.960-962: the loser of a battle of gods converted to the victor; "No
    convert is ever refused", so neither alignment nor timing stands in the way."""
    character, s = worshipper(state, name)
    victor = s.lost_to
    if victor is None:
        raise RuleRefused(f"{character}'s god has lost no battle to convert from: a convert goes over to the "
                          "god that has just beaten his own (001 l.960)")
    rule = in_force(state.campaign.settings, "conversion_marks")
    return [NewEvent(character_stream(character), GodConverted(
        character=character, battle=victor["battle"], from_god=s.god, god=victor["god"], power=victor["power"],
        alignment=victor["alignment"], flatterable=victor["flatterable"], sacrifice=victor["sacrifice"],
        marks=rule, black=s.black, grey=s.grey), game_time=state.today)]


def convert(store, campaign, name: str, *, actor: str, game_date: Optional[str] = None,
            ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: conversion(state_of(ctx), name),
                  game_date=game_date, ruling=ruling)


def penalty_recovered(state: State, name: str, why: str) -> list[NewEvent]:
    """l.956: a lost battle's A.T. and D.T. are "regained as F.P.s", by rest."""
    character, s = worshipper(state, name)
    if not s.penalty:
        raise RuleRefused(f"{character} has no A.T. or D.T. lost to a battle of gods to regain")
    return [NewEvent(character_stream(character), PenaltyRecovered(character=character, penalty=s.penalty,
                                                                   why=why), game_time=state.today)]


def recover(store, campaign, name: str, *, why: str, actor: str, game_date: Optional[str] = None,
            ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: penalty_recovered(state_of(ctx), name, why),
                  game_date=game_date, ruling=ruling)


def punishment(state: State, name: str, how: str) -> list[NewEvent]:
    """l.931: the punishment a check called for, "a disease, or curse", its extent
    by the number of black marks."""
    character, s = worshipper(state, name)
    if not s.punishments_due:
        raise RuleRefused(f"{character} has no punishment due: one comes from a punishment check "
                          "(`tally god mark`) that calls for it")
    check, black = s.punishments_due[0]
    return [NewEvent(character_stream(character), PunishmentInflicted(
        character=character, how=how, severity=black, check=check), game_time=state.today)]


def punish(store, campaign, name: str, *, how: str, actor: str, game_date: Optional[str] = None,
           ruling: Optional[str] = None):
    how = clean_text(how, "--how", LABEL_LIMIT)
    return record(store, campaign, actor, lambda ctx: punishment(state_of(ctx), name, how),
                  game_date=game_date, ruling=ruling)
