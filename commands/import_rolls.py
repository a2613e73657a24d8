"""Rolls from another tool's log, recorded as hand rolls (recorded, not
verifiable): every face, the formula, who rolled and when, the source and its
id, so importing the same file twice adds nothing. All of a file or none of
it, unless the referee asks to skip what cannot be read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import ROUND_FLOOR
from importlib import import_module
from typing import Optional

from commands.base import record
from projections.reading import Context
from commands.dice import current_epoch, epoch_stream
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.dice import DiceRolled
from commands.imports import json_input
from commands.imports.rolls import ForeignRoll, Parsed
from commands.imports.source_file import read_text
from ledger.text import NAME_LIMIT, REASON_LIMIT, check_text
from ledger.names import key

SOURCES = {"foundry": "foundry", "roll20": "roll20", "ddb": "ddb"}
SESSION_GAP = timedelta(hours=4)  # rolls further apart than this belong to different sittings
PROBLEMS_SHOWN = 5


@dataclass
class ImportReport:
    source: str
    rolls: int = 0
    dice: int = 0
    already: int = 0  # rolls the ledger holds from an earlier import of the same file
    skipped: list[tuple[int, str]] = field(default_factory=list)
    unit: str = "line"
    speakers: dict[str, int] = field(default_factory=dict)
    characters: dict[str, str] = field(default_factory=dict)  # speaker -> character
    sessions: list[dict] = field(default_factory=list)  # each sitting: first and last roll, rolls

    def as_dict(self) -> dict:
        return {"source": self.source, "rolls": self.rolls, "dice": self.dice, "already_imported": self.already,
                "skipped": [{self.unit: n, "problem": p} for n, p in self.skipped], "per_speaker": self.speakers,
                "characters": self.characters, "per_session": self.sessions}


def parse(source: str, path: str) -> Parsed:
    if source not in SOURCES:
        raise BadInput(f"unknown roll log {source!r}: use foundry, roll20 or ddb")
    reader = import_module(f"commands.imports.{SOURCES[source]}")
    text = read_text(path, "roll log")
    with json_input.budget(f"roll log {path}"):
        parsed = reader.parse(text)
    if not parsed.recognised:  # a file of another kind, or none this tool wrote: never "0 rolls imported"
        if parsed.problems:
            n, problem = parsed.problems[0]
            raise BadInput(f"{path} cannot be read as a {source} roll log ({parsed.unit} {n}: {problem}); it should "
                           f"hold {reader.EXPECTED}. Nothing was written")
        raise BadInput(f"{path} holds no {reader.EXPECTED}: is it the right file, and the right kind "
                       f"({', '.join(SOURCES)})? Nothing was written")
    return parsed


def import_rolls(store, campaign: Optional[str], source: str, path: str, *, actor: str,
                 mapping: Optional[dict[str, str]] = None, skip_bad: bool = False) -> ImportReport:
    parsed = parse(source, path)
    if parsed.problems and not skip_bad:
        shown = "; ".join(f"{parsed.unit} {n}: {p}" for n, p in parsed.problems[:PROBLEMS_SHOWN])
        more = f" (and {len(parsed.problems) - PROBLEMS_SHOWN} more)" if len(parsed.problems) > PROBLEMS_SHOWN else ""
        raise BadInput(f"{path}: {len(parsed.problems)} {parsed.unit}(s) cannot be read: {shown}{more}. "
                       "Nothing was written; fix them, or import the rest with --skip-bad")
    report = ImportReport(source, skipped=list(parsed.problems), unit=parsed.unit)

    def decide(ctx: Context) -> list[NewEvent]:
        if ctx.session is not None:
            raise RuleRefused(f"session {ctx.session.number} is open: imported rolls are not its own; "
                              "import them between sessions")
        epoch = current_epoch(ctx)
        characters = _characters(ctx, parsed.rolls, mapping or {})
        held = {e.payload.get("source_id") for e in ctx.events(types=["dice.rolled"])
                if e.payload.get("source") == source}
        events, new = [], []
        for roll in parsed.rolls:
            if roll.source_id in held:
                report.already += 1
                continue
            held.add(roll.source_id)
            events.append(NewEvent(epoch_stream(epoch.number), _event(roll, source, epoch.number,
                                                                      characters.get(roll.speaker)),
                                   game_time=ctx.today))
            new.append(roll)
            report.rolls += 1
            report.dice += len(roll.dice)
        report.speakers = dict(Counter(r.speaker for r in new).most_common())
        report.characters = {s: c for s, c in characters.items() if c}
        report.sessions = _sittings(new)
        return events

    record(store, campaign, actor, decide)
    return report


def _characters(ctx: Context, rolls: list[ForeignRoll], mapping: dict[str, str]) -> dict[str, Optional[str]]:
    """Each speaker's character: by the --map file, else by name; None if neither."""
    stable = ctx.world.stable
    for speaker, name in mapping.items():
        if name and stable.character(name) is None:
            raise BadInput(f"the --map file maps {speaker!r} to {name!r}, who is no character of "
                           f"campaign {ctx.name} (see `tally char list`)")
    mapped = {key(s): n for s, n in mapping.items()}
    found: dict[str, Optional[str]] = {}
    for speaker in {r.speaker for r in rolls}:
        name = mapped.get(key(speaker), speaker)
        character = stable.character(name) if name else None
        found[speaker] = character.name if character is not None else None
    return found


def _event(roll: ForeignRoll, source: str, epoch: int, character: Optional[str]) -> DiceRolled:
    whole = roll.total == roll.total.to_integral_value()
    return DiceRolled(
        expression=_printable(roll.formula, 200) or "?", dice=roll.dice,
        total=int(roll.total.to_integral_value(rounding=ROUND_FLOOR)), epoch=epoch, nonce=None,
        verifiable=False, character=character,
        why=_printable(roll.why, REASON_LIMIT) or None, source=source, source_id=roll.source_id,
        speaker=_printable(roll.speaker, NAME_LIMIT) or "unknown", rolled_at=roll.rolled_at,
        dropped=roll.dropped, exact_total=None if whole else str(roll.total))


def _printable(text: Optional[str], limit: int) -> str:
    """Another tool's text made fit for the ledger: one printable line, cut to the limit."""
    if not text:
        return ""
    kept = "".join(c if c.isprintable() else " " for c in text)
    kept = " ".join(kept.split())[:limit].strip()
    try:
        return check_text(kept, "imported text", limit)
    except BadInput:
        return "".join(c for c in kept if c.isascii() and c.isprintable())[:limit].strip()


def _sittings(rolls: list[ForeignRoll]) -> list[dict]:
    """Rolls grouped into sittings: a gap of more than four hours starts a new one."""
    timed = sorted(((r.rolled_at, r) for r in rolls if r.rolled_at), key=lambda pair: pair[0])
    sittings: list[dict] = []
    last = None
    for at, roll in timed:
        when = datetime.fromisoformat(at.replace("Z", "+00:00"))
        if last is None or when - last > SESSION_GAP:
            sittings.append({"from": at, "to": at, "rolls": 0, "dice": 0})
        sittings[-1].update(to=at, rolls=sittings[-1]["rolls"] + 1, dice=sittings[-1]["dice"] + len(roll.dice))
        last = when
    untimed = [r for r in rolls if not r.rolled_at]
    if untimed:
        sittings.append({"from": None, "to": None, "rolls": len(untimed), "dice": sum(len(r.dice) for r in untimed)})
    return sittings
