"""Gods (seed 001 l.741-978): alignments, adopting a god, marks, pleas,
crawling prayers, repentance, sacrifice, punishment, battles of gods and
conversion."""

from __future__ import annotations

from typing import Optional, Sequence

from commands.base import character_stream, clean_name, clean_text, find_character, record
from projections.reading import Context
from commands.batch import Batch
from commands.dice import dice_of
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


def worshipper(ctx: Context, name: str) -> tuple[str, Standing]:
    ctx.require("gods")
    character = find_character(ctx, name)
    standing = ctx.world.gods.of(character.name)
    if standing is None:
        raise RuleRefused(f"{character.name} has adopted no god: `tally god adopt {character.name} NAME --power N`")
    return character.name, standing


def alignment_named(text: str, what: str) -> str:
    code = gods.alignment(text)
    if code is None:
        raise BadInput(f"{what} {text!r} is not an alignment: a basic alignment 1-7 (good to evil) and a cosmic "
                       "order allegiance A-G (law to chaos), e.g. 2E (001 l.681-688)")
    return code


def align(store, campaign, name: str, alignment: str, *, actor: str,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    """l.671: players choose their characters' alignments."""
    code = alignment_named(alignment, "the alignment")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("gods")
        character = find_character(ctx, name)
        if ctx.world.gods.alignment_of(character.name) == code:
            raise RuleRefused(f"{character.name}'s alignment is already {code}")
        held = ctx.world.gods.of(character.name)
        if held is not None and held.alignment != code:
            raise RuleRefused(f"{character.name} worships {held.god} ({held.alignment}): a worshipper keeps its "
                              f"god's alignment (001 l.755); acts out of it earn black marks instead")
        return [NewEvent(character_stream(character.name), AlignmentChosen(character=character.name, alignment=code),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def adopt(store, campaign, name: str, god: str, *, power: int, alignment: str, actor: str,
          flatterable: bool = False, sacrifice: str = "unspecified",
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    god = clean_name(god, "the god's name")
    code = alignment_named(alignment, "--alignment")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("gods")
        character = find_character(ctx, name)
        held = ctx.world.gods.of(character.name)
        if held:
            raise RuleRefused(f"{character.name} already worships {held.god}")
        if not 1 <= power <= 10:
            raise BadInput("a god's power rating is 1 to 10 (001 l.749)")
        own = ctx.world.gods.alignment_of(character.name)
        if own is None:
            raise RuleRefused(f"{character.name} has no alignment yet: `tally god align {character.name} {code}` "
                              "first (001 l.755: the god's alignment is the character's own)")
        if own != code:
            raise RuleRefused(f"{character.name} is {own} and {god} is {code}: a character chooses a god with the "
                              "same alignment as himself (001 l.755)")
        rule = in_force(ctx.campaign.settings, "god_adoption")
        refused = gods.adoption_refused(ctx.world, character.name, rule, ctx.today)
        if refused:
            raise RuleRefused(refused)
        return [NewEvent(character_stream(character.name), GodAdopted(
            character=character.name, god=god, power=power, alignment=code, flatterable=flatterable,
            sacrifice=clean_text(sacrifice, "--sacrifice", LABEL_LIMIT), character_alignment=own, adoption=rule),
            game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def mark(store, campaign, name: str, *, why: str, actor: str, grey: Optional[int] = None,
         warning: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, standing = worshipper(ctx, name)
        batch = Batch(ctx, dice_of(ctx, hand))
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
        settings = ctx.campaign.settings
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

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def pray(store, campaign, name: str, *, actor: str, life_or_death: bool = False, excessive: bool = False,
         free_hand: bool = False, interference: bool = False, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        batch = Batch(ctx, dice_of(ctx, hand))
        stream = character_stream(character)
        settings = ctx.campaign.settings
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

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def _joins(batch: Batch, character: str, s: Standing, otherwise: str) -> tuple[Pending, str]:
    """l.964: another god interfering, "a 30% chance that it will join in of its
    own accord": rolled when the plea itself brings no help."""
    rolled, _, roll = batch.roll("d%", character=character, why=f"{s.god} joins in unasked: {gods.JOINS_UNASKED}%")
    return rolled, "joined" if roll <= gods.JOINS_UNASKED else otherwise


def crawl(store, campaign, name: str, *, actor: str, thanks: bool = False,
          hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if not s.flatterable:
            raise RuleRefused(f"{s.god} is not the impressionable type: crawling prayers do not work (001 l.851)")
        batch = Batch(ctx, dice_of(ctx, hand))
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
        batch = Batch(ctx, dice_of(ctx, hand))
        settings = ctx.campaign.settings
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
        for who, s in ((character, mine), (other, theirs)):  # l.935: "both pray and get their god's support"
            if s.supported_on(ctx.today) is None:
                raise RuleRefused(f"{who} has no answered plea today for a battle to be fought over: a battle of "
                                  "gods comes when both pray and are answered (001 l.935; `tally god pray`)")
        needs, their_needs = gods.BATTLE[mine.power][theirs.power - 1], gods.BATTLE[theirs.power][mine.power - 1]
        batch = Batch(ctx, dice_of(ctx, hand))
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
            plea=mine.supported_on(ctx.today), opponent_plea=theirs.supported_on(ctx.today)), cause=first)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def convert(store, campaign, name: str, *, actor: str, game_date: Optional[str] = None,
            ruling: Optional[str] = None):
    """l.960-962: the loser of a battle of gods converted to the victor; "No
    convert is ever refused", so neither alignment nor timing stands in the way."""
    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        victor = s.lost_to
        if victor is None:
            raise RuleRefused(f"{character}'s god has lost no battle to convert from: a convert goes over to the "
                              "god that has just beaten his own (001 l.960)")
        rule = in_force(ctx.campaign.settings, "conversion_marks")
        return [NewEvent(character_stream(character), GodConverted(
            character=character, battle=victor["battle"], from_god=s.god, god=victor["god"], power=victor["power"],
            alignment=victor["alignment"], flatterable=victor["flatterable"], sacrifice=victor["sacrifice"],
            marks=rule, black=s.black, grey=s.grey), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def recover(store, campaign, name: str, *, why: str, actor: str, game_date: Optional[str] = None,
            ruling: Optional[str] = None):
    """l.956: a lost battle's A.T. and D.T. are "regained as F.P.s", by rest."""
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if not s.penalty:
            raise RuleRefused(f"{character} has no A.T. or D.T. lost to a battle of gods to regain")
        return [NewEvent(character_stream(character), PenaltyRecovered(character=character, penalty=s.penalty,
                                                                       why=why), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def punish(store, campaign, name: str, *, how: str, actor: str, game_date: Optional[str] = None,
           ruling: Optional[str] = None):
    """l.931: the punishment a check called for, "a disease, or curse", its extent
    by the number of black marks."""
    how = clean_text(how, "--how", LABEL_LIMIT)

    def decide(ctx: Context) -> list[NewEvent]:
        character, s = worshipper(ctx, name)
        if not s.punishments_due:
            raise RuleRefused(f"{character} has no punishment due: one comes from a punishment check "
                              "(`tally god mark`) that calls for it")
        check, black = s.punishments_due[0]
        return [NewEvent(character_stream(character), PunishmentInflicted(
            character=character, how=how, severity=black, check=check), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
