"""Creating a campaign and changing its settings."""

from __future__ import annotations

import re
from typing import Optional

from ledger.calendar import calendar_from_spec, spec_for
from commands.base import record
from commands.state import State, state_of
from commands.dice import open_epoch
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.campaign import CampaignCreated, SettingChanged
from ledger.settings import check, in_force, parse_rules
from ledger.store import Store
from ledger.text import CAMPAIGN_LIMIT, check_text

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _'.-]{0,63}")


def define(name: str, *, rules: str, calendar: str, start: str) -> tuple[str, list[str], dict, int]:
    """A new campaign's name, rules, calendar and start day, checked without
    opening a ledger: the CLI asks before it makes a new ledger file, so a
    refusal leaves none behind."""
    name = check_text(name, "a campaign's name", CAMPAIGN_LIMIT)
    if not NAME.fullmatch(name):
        raise BadInput(
            "a campaign name is 1-64 letters, digits, spaces or _ ' . - and starts with a letter or digit"
        )
    modules = parse_rules(rules)
    spec = spec_for(calendar)
    return name, modules, spec, calendar_from_spec(spec).parse_or_day(start)


def create(store: Store, name: str, *, rules: str, calendar: str, start: str,
           actor: str) -> list[Envelope]:
    """Record ``campaign.created`` and open the first dice epoch."""
    name, modules, spec, start_day = define(name, rules=rules, calendar=calendar, start=start)
    with store.transaction() as tx:
        if name in tx.campaigns():
            raise RuleRefused(f"a campaign named {name!r} already exists in this database")
        created = NewEvent("campaign", CampaignCreated(
            name=name, rules=modules, calendar=spec, start=start_day), game_time=start_day)
        commit = open_epoch(tx, name, 1, start_day)
        events, expected = [created, commit], {"campaign": 0, "epoch:1": 0}
        if "wolves" in modules:  # the band begins aboard the dead master's Karvi (000 l.56)
            from commands.wolves import starting_ship

            events.append(starting_ship(start_day))
            expected[events[-1].stream] = 0
        return tx.append(name, events, actor=actor, expected=expected)


def setting_changed(state: State, key: str, value: str) -> list[NewEvent]:
    checked = check(key, value, list(state.campaign.rules))
    # in force, not only recorded: a setting newer than the campaign has its default
    previous = in_force(state.campaign.settings, key)
    if previous == checked:
        raise RuleRefused(f"{key} is already {checked}")
    return [NewEvent("campaign", SettingChanged(key=key, value=checked, previous=previous),
                     game_time=state.today)]


def set_setting(store: Store, campaign: Optional[str], key: str, value: str, *,
                actor: str) -> list[Envelope]:
    return record(store, campaign, actor, lambda ctx: setting_changed(state_of(ctx), key, value))
