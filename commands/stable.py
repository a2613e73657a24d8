"""Players, characters and retirement (004 l.496-519)."""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

from commands.base import character_stream, clean_name, find_character, player_stream, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.factions import faction_named, known_factions
from commands.state import State, state_of
from commands.skirmish import start_skirmisher
from commands.wolves import outfit_into
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import ReputationChanged
from ledger.events.stable import CharacterCreated, CharacterRetired, PlayerAdded
from ledger.rules import coeac
from ledger.store import Store
from ledger.names import key
from projections.stable import Character

RESERVED = {coeac.COMPANY}  # a stronghold's owner may be the Company


def player_added(state: State, name: str) -> list[NewEvent]:
    if state.world.stable.player(name):
        raise RuleRefused(f"player {name!r} already exists")
    if not key(name):
        raise BadInput("a player's name needs a letter or digit")
    return [NewEvent(player_stream(name), PlayerAdded(name=name), game_time=state.today,
                     session=state.session_number)]


def add_player(store: Store, campaign: Optional[str], name: str, *, actor: str,
               game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    name = clean_name(name, "a player's name")
    return record(store, campaign, actor, lambda ctx: player_added(state_of(ctx), name),
                  game_date=game_date, ruling=ruling)[0]


def _ratings(state: State, given: dict[str, int], canonical, names: Sequence[str], what: str) -> dict[str, int]:
    out = {}
    for name, rating in given.items():
        proper = canonical(name) if state.campaign.runs("coeac") else clean_name(name, f"a {what}'s name")
        if not proper:
            raise BadInput(f"unknown {what} {name!r}: choose from {', '.join(names)}")
        if rating < 0:
            raise BadInput(f"{what} {proper} cannot be negative")
        out[proper] = rating
    return out


def character_created(state: State, name: str, dice: Dice, *, player: str, char_class: Optional[str] = None,
                      skills: Optional[dict[str, int]] = None, saves: Optional[dict[str, int]] = None,
                      max_hp: Optional[int] = None, opening: Optional[dict[str, int]] = None,
                      retirement_skills: Optional[Sequence[str]] = None,
                      spend: Optional[Sequence[str]] = None) -> list[NewEvent]:
    """A new character for a player: its ratings checked for the rules the campaign runs, a retiree's
    legacy received (004 l.513-519), and under wolves its start rolled and outfitted (000 l.25-56)."""
    if not key(name) or key(name) in RESERVED:
        raise BadInput(f"{name!r} cannot be a character's name")
    if state.world.stable.character(name):
        raise RuleRefused(f"a character named {name!r} already exists in this campaign")
    owner = state.world.stable.player(player)
    if owner is None:
        raise NotFound(f"no player named {player!r}: add them with `tally player add {player}`")
    coeac_rules = state.campaign.runs("coeac")
    klass = None
    if char_class:
        klass = next((c for c in coeac.CLASSES if c.lower() == char_class.lower()), None) \
            if coeac_rules else clean_name(char_class, "--class")
        if not klass:
            raise BadInput(f"unknown class {char_class!r}: choose from {', '.join(coeac.CLASSES)}")
    if coeac_rules and max_hp is None:
        raise BadInput("the coeac module needs the character's maximum HP: give --max-hp N")
    if max_hp is not None and max_hp < 1:
        raise BadInput("--max-hp must be at least 1 (max HP 0 is death, 004 l.86)")
    balances = _opening(opening or {})
    legacy_fields = _legacy(owner, retirement_skills, state)
    event = CharacterCreated(
        name=name, player=owner.name, char_class=klass,
        skills=_ratings(state, skills or {}, coeac.canonical_skill, coeac.SKILLS, "Skill"),
        saves=_ratings(state, saves or {}, coeac.canonical_save, coeac.SAVES, "Save"),
        max_hp=max_hp, opening=balances, owed_boons=owner.owed_boons, **legacy_fields)
    batch = Batch(state, dice)
    batch.add(character_stream(name), event)
    if state.campaign.runs("wolves"):
        outfit_into(batch, name, spend or [])
    elif spend:
        raise RuleRefused("--spend is the wolves rules' hacksilver at creation; this campaign does not run them")
    if state.campaign.runs("skirmish"):
        start_skirmisher(state, batch, name, event.skills)
    return batch.done()


def new_character(store: Store, campaign: Optional[str], name: str, *, player: str, actor: str,
                  char_class: Optional[str] = None, skills: Optional[dict[str, int]] = None,
                  saves: Optional[dict[str, int]] = None, max_hp: Optional[int] = None,
                  opening: Optional[dict[str, int]] = None,
                  retirement_skills: Optional[Sequence[str]] = None,
                  spend: Optional[Sequence[str]] = None, hand: Optional[Sequence[int]] = None,
                  game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    name = clean_name(name, "a character's name")
    return record(store, campaign, actor, lambda ctx: character_created(
        state_of(ctx), name, dice_of(ctx, hand), player=player, char_class=char_class, skills=skills, saves=saves,
        max_hp=max_hp, opening=opening, retirement_skills=retirement_skills, spend=spend),
        game_date=game_date, ruling=ruling)


def _opening(opening: dict[str, int]) -> dict[str, int]:
    balances = {k: v for k, v in opening.items() if v is not None}
    for field_name, value in balances.items():
        if value < 0:
            raise BadInput(f"opening {field_name} cannot be negative")
    if balances.get("wealth", 0) > coeac.MAX_WEALTH:
        raise BadInput(f"Wealth is rated 0-{coeac.MAX_WEALTH} (004 l.157)")
    return balances


def _legacy(owner, retirement_skills, state: State) -> dict:
    """The benefits of the oldest retirement waiting for this player's next character."""
    chosen = [s for s in (retirement_skills or []) if s.strip()]
    if not owner.legacies:
        if chosen:
            raise RuleRefused(f"{owner.name} has no retired character's legacy waiting: drop --retirement-skills")
        return {}
    legacy = owner.legacies[0]
    points = legacy["skill_points"]
    skills = []
    for name in chosen:
        proper = coeac.canonical_skill(name)
        if not proper:
            raise BadInput(f"unknown Skill {name!r}: choose from {', '.join(coeac.SKILLS)}")
        skills.append(proper)
    if len(set(skills)) != len(skills):
        raise BadInput("--retirement-skills must name different Skills (004 l.516: 'a different Skill')")
    if len(skills) != points:
        raise BadInput(
            f"{legacy['from']} retired with {points} Skill point(s) to pass on: name exactly {points} "
            f"different Skill(s) with --retirement-skills (given {len(skills)})"
        )
    return {"inherited_from": legacy["from"], "inherited_skills": skills,
            "inherited_wealth": legacy["wealth_ranks"]}


def retirement(state: State, name: str, dice: Dice, *, rep_faction: Optional[str] = None,
               new_faction: bool = False, known: Optional[Sequence[str]] = None) -> list[NewEvent]:
    """004 l.513-519: at a session's start or between sessions; the legacy the player's next character
    inherits, and with ``rep_faction`` the faction roll (l.518). ``known``: the Factions the ledger
    names (default: those the world holds); another needs ``new_faction``."""
    state.require("coeac")
    character = find_character(state, name)
    session = state.session
    if session is not None:
        if session.play_started:
            raise RuleRefused(
                f"session {session.number} is under way: retire only at the start of a session, before "
                "anything else is logged in it, or between sessions (004 l.513)"
            )
        if session.is_activated(character.name):
            raise RuleRefused(f"{character.name} is activated for session {session.number} and cannot retire in it")
    skill_points, wealth_ranks = coeac.retirement_legacy(character.boons, character.wealth)
    batch = Batch(state, dice)
    faction = None
    if rep_faction:
        known = [n for n, _ in state.world.company.reputation.values()] if known is None else known
        faction = faction_named(clean_name(rep_faction, "--rep-faction"), known, new=new_faction,
                                flag="--new-faction")
    retired = CharacterRetired(name=character.name, player=character.player, boons=character.boons,
                               wealth=character.wealth, skill_points=skill_points, wealth_ranks=wealth_ranks,
                               rep_faction=faction)
    first = batch.add(character_stream(character.name), retired)
    if faction:
        total, before = _faction_roll(state, batch, character, faction)
        # The retirement records what the roll was decided on: its premise along the timeline (l.518).
        batch.events[first.index] = dataclasses.replace(
            batch.events[first.index], event=retired.model_copy(update={"faction_roll": total, "rep_before": before}))
    return batch.done()


def retire(store: Store, campaign: Optional[str], name: str, *, actor: str,
           rep_faction: Optional[str] = None, new_faction: bool = False, hand: Optional[Sequence[int]] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    return record(store, campaign, actor,
                  lambda ctx: retirement(state_of(ctx), name, dice_of(ctx, hand), rep_faction=rep_faction,
                                         new_faction=new_faction,
                                         known=known_factions(ctx) if rep_faction else None),
                  game_date=game_date, ruling=ruling)


def _faction_roll(state: State, batch: Batch, character: Character, faction: str) -> tuple[int, int]:
    """l.518: 1d6 + one per full five Boons; above the current Reputation, +1 (never past +6)."""
    bonus = character.boons // 5
    roll, _, total = batch.roll(f"1d6+{bonus}", character=character.name,
                                why=f"retirement: faction roll for {faction}")
    before = state.world.company.rep(faction)
    if total > before:
        batch.add(f"faction:{key(faction)}", ReputationChanged(
            faction=faction, requested=1, before=before, limit=coeac.REPUTATION_LIMIT,
            why=f"{character.name} retired: 1d6+{bonus} = {total} > {before}"), cause=roll)
    return total, before
