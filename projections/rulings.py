"""Figures that stand by a referee's ruling (issue 28): a fact accepted with
`--ruling` although it breaks the timeline can leave a figure where no
ordinary command could (Cash −1), and the sheet and `why` must say so.

A ruling in force (``ledger.ruling``, not voided) accepts its own fact's
events and every event it broke (``broken``). A figure outside what the
invariants allow (commands/invariants.py: Cash, silver, luck and XP never
below zero, Wealth 0-12, HP 0 to max, Bonus HP never below zero, Class
Resources within their pools, no more Slots carried than there are) stands
by the latest such ruling whose events name the character; a row of a
figure's story stands by the ruling that accepted its event."""

from __future__ import annotations

from typing import Optional

from ledger.names import key
from ledger.rules.coeac import MAX_WEALTH
from projections.timeline import VOID

RULING = "ledger.ruling"


def accepted(ctx) -> dict[int, dict]:
    """Each event a ruling in force accepted, by position -> the ruling (the latest, where two did)."""
    read = list(ctx.tx.read(ctx.name, upto=ctx.upto, types=[RULING, VOID]))
    voided = {e.payload["target"] for e in read if e.type == VOID}
    out: dict[int, dict] = {}
    for r in read:
        if r.type != RULING or r.position in voided:
            continue
        ruling = {"position": r.position, "ruling": r.payload["ruling"], "ruled_by": r.payload["ruled_by"]}
        own = range(r.cause, r.position) if r.cause else ()  # the ruled fact's events, appended just before it
        for position in [*own, *r.payload["broken"]]:
            if position not in voided:
                out[position] = ruling
    return out


def out_of_bounds(sheet: dict) -> list[str]:
    """The sheet's figures outside what the invariants allow."""
    def below_zero(field: str) -> bool:
        return isinstance(sheet.get(field), int) and sheet[field] < 0

    found = [f for f in ("cash", "bonus_hp", "silver", "luck", "xp") if below_zero(f)]
    if isinstance(sheet.get("wealth"), int) and not 0 <= sheet["wealth"] <= MAX_WEALTH:
        found.append("wealth")
    if isinstance(sheet.get("hp"), int) and isinstance(sheet.get("max_hp"), int) \
            and not 0 <= sheet["hp"] <= sheet["max_hp"]:
        found.append("hp")
    if any(not 0 <= r["current"] <= r["max"] for r in (sheet.get("resources") or {}).values()):
        found.append("resources")
    slots = sheet.get("slots")
    if isinstance(slots, dict) and slots["used"] > slots["capacity"]:
        found.append("slots")
    return sorted(found, key=lambda f: ORDER.index(f))


ORDER = ["hp", "bonus_hp", "resources", "wealth", "cash", "slots", "silver", "luck", "xp"]


def _names(payload: dict) -> set[str]:
    names = {key(payload[f]) for f in ("character", "by", "to", "name") if isinstance(payload.get(f), str)}
    if isinstance(payload.get("shares"), dict):
        names.update(key(n) for n in payload["shares"])
    return names


def by_ruling(ctx, sheet: dict, held: Optional[dict[int, dict]] = None) -> dict[str, Optional[dict]]:
    """The sheet's figures that stand by a ruling -> the ruling (None: none names the character,
    as in a ledger recorded before rulings named what they broke)."""
    figures = out_of_bounds(sheet)
    if not figures:
        return {}
    held = accepted(ctx) if held is None else held
    events = ctx.tx.get_many(sorted(held))
    naming = [held[p] for p, e in sorted(events.items())
              if e.campaign == ctx.name and key(sheet["name"]) in _names(e.payload)]
    ruling = max(naming, key=lambda r: r["position"]) if naming else None
    return {f: ruling for f in figures}


def mark_rows(ctx, rows: list[dict], held: Optional[dict[int, dict]] = None) -> None:
    """Each row of a figure's story whose event a ruling accepted gets ``ruling``."""
    held = accepted(ctx) if held is None else held
    for row in rows:
        row["ruling"] = held.get(row["position"])
