"""Which Faction a name means: one the ledger already knows (in its own
spelling), or a first mention the referee says is new (issue 28: a
misspelt "Rivr Guild" must not silently start a Faction of its own)."""

from __future__ import annotations

from typing import Iterable

from ledger.errors import NotFound, RuleRefused
from ledger.names import key, nearest
from projections.timeline import VOID

NAMED_BY = ("reputation.changed", "character.retired")


def known_factions(ctx) -> list[str]:
    """Every Faction the ledger names, on any day (a fact logged late may come
    before a Faction's first change and is no first mention), voids left out."""
    voided = {e.payload["target"] for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=[VOID])}
    names: dict[str, str] = {}
    for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=list(NAMED_BY)):
        faction = e.payload.get("faction") or e.payload.get("rep_faction")
        if faction and e.position not in voided:
            names.setdefault(key(faction), faction)
    return list(names.values())


def faction_named(name: str, known: Iterable[str], *, new: bool, flag: str = "--new") -> str:
    """The Faction ``name`` means, in the spelling first recorded; a name the
    ledger does not know needs ``flag``, and is refused with the near name."""
    known = list(known)
    match = next((n for n in known if key(n) == key(name)), None)
    if match is not None:
        if new:
            raise RuleRefused(f"{match} is already a Faction of this campaign: drop {flag}")
        return match
    if new:
        return name
    near = nearest(name, known)
    if near is not None:
        raise NotFound(f"no Faction named {name!r} yet: did you mean {near}? (a new Faction's first mention "
                       f"takes {flag})")
    listed = f" (known: {', '.join(sorted(known, key=str.casefold))})" if known else ""
    raise NotFound(f"no Faction named {name!r} yet: a Faction's first mention takes {flag}{listed}")
