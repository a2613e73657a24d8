"""Boons chosen, Specialty Classes unlocked and Class Resources kept (004
l.499-549): what a character's growth changes in what the ledger tracks."""

from __future__ import annotations

from typing import Optional

from ledger import settings
from commands.base import acting, character_stream, clean_text, find_character, record
from commands.state import State, state_of
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import BoonSpent, ResourceChanged, ResourceMaxSet, SpecialtyUnlocked
from ledger.rules import coeac
from ledger.store import Store
from ledger.text import LABEL_LIMIT
from projections.stable import Character

MAX_POOL = 20  # no Class Resource pool in the seed comes near it


def boon_lists(character: Character) -> list[str]:
    """l.503: "the generic Adventurer list, ... your Core Class list ..., and any
    Advanced Class list(s) that you have unlocked"."""
    return [coeac.ADVENTURER] + ([character.char_class] if character.char_class else []) + list(character.specialties)


def boon_spent(state: State, name: str, *, boon_list: str, skill: Optional[str], save: Optional[str],
               feat: Optional[str]) -> list[NewEvent]:
    """A Boon gained is spent: +1 to a Skill or a Save, or a Feat."""
    state.require("coeac")
    c = find_character(state, name)
    if [skill, save, feat].count(None) != 2:
        raise BadInput("a Boon buys one thing: give exactly one of --skill, --save or --feat")
    lists = boon_lists(c)
    chosen = next((entry for entry in lists if entry.lower() == boon_list.strip().lower()), None)
    if chosen is None:
        raise RuleRefused(f"{c.name} may take Boons from {', '.join(lists)} (004 l.503, l.533): unlock a "
                          "Specialty Class first with `tally specialty unlock`")
    if c.boons_unchosen < 1:
        raise RuleRefused(f"{c.name} has no Boon to choose: one comes with each session played (004 l.497, l.503)")
    if skill is not None:
        kind, target, names = "skill", coeac.canonical_skill(skill), coeac.SKILLS
    elif save is not None:
        kind, target, names = "save", coeac.canonical_save(save), coeac.SAVES
    else:
        kind, target, names = "feat", feat, None
    if not target:
        raise BadInput(f"unknown {kind} {skill or save!r}: choose from {', '.join(names)}")
    ratings = c.skills if kind == "skill" else c.saves if kind == "save" else None
    return [NewEvent(character_stream(c.name), BoonSpent(
        character=c.name, boon_list=chosen, kind=kind, target=target,
        before=ratings.get(target, 0) if ratings is not None else None), game_time=state.today)]


def choose(store: Store, campaign: Optional[str], name: str, *, boon_list: str = coeac.ADVENTURER,
           skill: Optional[str] = None, save: Optional[str] = None, feat: Optional[str] = None, actor: str,
           game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    feat = clean_text(feat, "--feat", LABEL_LIMIT) if feat is not None else None
    return record(store, campaign, actor, lambda ctx: boon_spent(
        state_of(ctx), name, boon_list=boon_list, skill=skill, save=save, feat=feat),
        game_date=game_date, ruling=ruling)[0]


def specialty_unlocked(state: State, name: str, specialty: str, why: str) -> list[NewEvent]:
    """l.532: "By establishing a relevant background or status or by achieving an
    exploit in the fiction, you may unlock a Specialty Class"."""
    state.require("coeac")
    c = find_character(state, name)
    proper = coeac.canonical_specialty(specialty)
    if proper is None:
        raise BadInput(f"unknown Specialty Class {specialty!r}: choose from {', '.join(coeac.SPECIALTIES)}")
    if proper in coeac.LOCKED:
        raise RuleRefused(f"{proper} is not yet unlocked in the rules themselves (004 l.546)")
    if proper in c.specialties:
        raise RuleRefused(f"{c.name} has already unlocked {proper}")
    rule = settings.in_force(state.campaign.settings, "specialty_resources")
    return [NewEvent(character_stream(c.name), SpecialtyUnlocked(
        character=c.name, specialty=proper, resource=coeac.specialty_resource(proper, rule), rule=rule, why=why),
        game_time=state.today)]


def unlock(store: Store, campaign: Optional[str], name: str, specialty: str, *, why: str, actor: str,
           game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: specialty_unlocked(state_of(ctx), name, specialty, why),
                  game_date=game_date, ruling=ruling)[0]


def pool_of(c: Character, resource: Optional[str]) -> str:
    """The Class Resource named (case-blind), or the core class's when none is."""
    if resource is None:
        resource = coeac.CLASS_RESOURCES.get(c.char_class or "") or next(iter(c.resource_max), None)
        if resource is None:
            raise RuleRefused(f"{c.name} has no Class Resource (004 l.500: each class has one)")
    found = next((r for r in c.resource_max if r.lower() == resource.strip().lower()), None)
    if found is None:
        raise NotFound(f"{c.name} has no Class Resource {resource!r}: "
                       + (f"theirs: {', '.join(c.resource_max)}" if c.resource_max else "they have none"))
    return found


def resource_max_set(state: State, name: str, resource: str, maximum: int, why: str) -> list[NewEvent]:
    state.require("coeac")
    c = find_character(state, name)
    r = pool_of(c, resource)
    if not 0 <= maximum <= MAX_POOL:
        raise BadInput(f"a Class Resource pool holds 0 to {MAX_POOL} points")
    if maximum == c.resource_max[r]:
        raise RuleRefused(f"{c.name}'s {r} pool already holds {maximum}")
    return [NewEvent(character_stream(c.name), ResourceMaxSet(
        character=c.name, resource=r, maximum=maximum, before=c.resource_max[r], why=why), game_time=state.today)]


def set_maximum(store: Store, campaign: Optional[str], name: str, resource: str, maximum: int, *, why: str,
                actor: str, game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: resource_max_set(state_of(ctx), name, resource, maximum, why),
                  game_date=game_date, ruling=ruling)[0]


def resource_change(state: State, name: str, delta: int, resource: Optional[str], why: str) -> list[NewEvent]:
    """Spend (``delta`` < 0) or regain Class Resource points, within the pool."""
    c = acting(state, name)
    r = pool_of(c, resource)
    if delta == 0:
        raise BadInput("spend or regain at least 1 point")
    now, top = c.resources[r], c.resource_max[r]
    if delta < 0 and now + delta < 0:
        raise RuleRefused(f"{c.name} has {now} {r} and cannot spend {-delta}")
    if now + delta > top:
        raise RuleRefused(f"{c.name} has {now} of {top} {r}: regaining {delta} would pass the pool's size")
    return [NewEvent(character_stream(c.name), ResourceChanged(character=c.name, resource=r, delta=delta, why=why),
                     game_time=state.today)]


def change(store: Store, campaign: Optional[str], name: str, delta: int, *, resource: Optional[str] = None,
           why: str, actor: str, game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: resource_change(state_of(ctx), name, delta, resource, why),
                  game_date=game_date, ruling=ruling)[0]
