"""The sealed secrets read model: each secret's label and commitment from its
seal, and its salt and text once revealed (docs/secrets.md); and what shows,
beside a roll made on a sealed table, the line its total picked.

A secret is named by its label, compared as names are (ledger/names.py). A
reveal acts on its seal: one before it (a seal voided, or a reveal logged
for a day before the seal's) is refused as a late fact.
"""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger import sealed as rules
from ledger.envelope import Envelope
from ledger.names import key
from projections.handlers import Table, entry


class Secret(Struct, frozen=True):
    label: str
    commitment: str
    sealed_at: int  # the seal's position
    sealed_day: int
    sealed_recorded: str
    revealed_at: Optional[int] = None
    revealed_day: Optional[int] = None
    revealed_recorded: Optional[str] = None
    salt: Optional[str] = None
    text: Optional[str] = None

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None


class Sealed(Struct, frozen=True):
    secrets: dict[str, Secret] = field(default_factory=dict)  # by the label's key, in the order sealed

    def find(self, label: str) -> Optional[Secret]:
        return self.secrets.get(key(label))

    def revealed_text(self, commitment: str) -> Optional[Secret]:
        """The revealed secret sealed with this commitment, or None."""
        return next((s for s in self.secrets.values() if s.commitment == commitment and s.revealed), None)

    @property
    def all(self) -> list[Secret]:
        return list(self.secrets.values())


TABLE = Table("sealed")


def _label_free(world, p: dict, day: int) -> Optional[str]:
    found = world.sealed.find(p["label"])
    if found is not None:
        return f"the label {found.label!r} is already sealed (event {found.sealed_at}): a label is sealed once"
    return None


@TABLE.on("secret.sealed", line=lambda p: f"secret {p['label']!r} sealed: commitment {p['commitment'][:16]}…",
          premise=_label_free)
def _sealed(state: Sealed, p: dict, e: Envelope) -> Sealed:
    secret = Secret(p["label"], p["commitment"], e.position, e.game_time, e.recorded_at)
    return replace(state, secrets={**state.secrets, key(p["label"]): secret})


def _still_sealed(world, p: dict, day: int) -> Optional[str]:
    found = world.sealed.find(p["label"])
    when = world.campaign.calendar.format(day)
    if found is None:
        return f"{p['label']!r} would not be sealed on {when}: a secret is revealed only after its seal"
    if found.commitment != p["commitment"]:
        return f"{p['label']!r} would be sealed on {when} with another commitment ({found.commitment[:16]}…)"
    if found.revealed:
        return f"{p['label']!r} would already be revealed on {when} (event {found.revealed_at})"
    return None


def _revealed_line(p: dict) -> str:
    lines = p["text"].split("\n")
    first = lines[0] if len(lines[0]) <= 60 else lines[0][:59] + "…"
    more = f" (+{len(lines) - 1} more line{'s' if len(lines) > 2 else ''})" if len(lines) > 1 else ""
    return f"secret {p['label']!r} revealed: {first!r}{more}, salt {p['salt'][:16]}…"


@TABLE.on("secret.revealed", line=_revealed_line, premise=_still_sealed)
def _revealed(state: Sealed, p: dict, e: Envelope) -> Sealed:
    found = entry(state.secrets, key(p["label"]), f"the sealed secret {p['label']!r}")
    secret = replace(found, revealed_at=e.position, revealed_day=e.game_time, revealed_recorded=e.recorded_at,
                     salt=p["salt"], text=p["text"])
    return replace(state, secrets={**state.secrets, key(p["label"]): secret})


apply = TABLE.apply


# -- a roll on a sealed table ------------------------------------------------------

def picked(payload: dict, state: Sealed) -> Optional[dict]:
    """What a roll on a sealed table shows of it: the table and, once revealed
    with the commitment the roll names, the line its total picked (None for a
    roll on no table)."""
    on = payload.get("on")
    if not on:
        return None
    revealed = state.revealed_text(on["commitment"]) if state is not None else None
    shown = {"label": on["label"], "commitment": on["commitment"], "revealed": revealed is not None,
             "line": None, "text": None}
    if revealed is not None:
        found = rules.picked(revealed.text, payload["total"])
        if found is not None:
            shown.update(line=found.line, text=found.text)
    return shown


def pick_note(payload: dict, state: Sealed) -> str:
    """The words beside a roll on a sealed table: the line it picked once the table is revealed."""
    shown = picked(payload, state)
    if shown is None or not shown["revealed"]:
        return ""
    if shown["line"] is None:
        return f" → no single line of {shown['label']!r} covers {payload['total']}"
    return f" → line {shown['line']} of {shown['label']!r}: {shown['text']}"


def secrets_view(ctx) -> list[dict]:
    """Every secret at the context's point, in the order sealed: its commitment
    and dates, and its salt and text once revealed."""
    calendar = ctx.campaign.calendar
    return [{"label": s.label, "commitment": s.commitment, "sealed_event": s.sealed_at,
             "sealed_on": calendar.format(s.sealed_day), "sealed_recorded_at": s.sealed_recorded,
             "revealed": s.revealed, "revealed_event": s.revealed_at,
             "revealed_on": calendar.format(s.revealed_day) if s.revealed else None,
             "revealed_recorded_at": s.revealed_recorded,
             **({"salt": s.salt, "text": s.text} if s.revealed else {})}
            for s in ctx.world.sealed.all]


def rolls_on(ctx, secret: Secret) -> list[dict]:
    """The rolls made on a secret's table (read from its seal on), each with the line it picked once revealed."""
    calendar = ctx.campaign.calendar
    found = []
    for e in ctx.events(types=["dice.rolled"], after=secret.sealed_at):
        on = e.payload.get("on")
        if not on or on["commitment"] != secret.commitment:
            continue
        shown = picked(e.payload, ctx.world.sealed)
        found.append({"position": e.position, "game_date": calendar.format(e.game_time),
                      "expression": e.payload["expression"], "total": e.payload["total"],
                      "character": e.payload.get("character"), "why": e.payload.get("why"),
                      "line": shown["line"], "text": shown["text"]})
    return found


def revealed_problems(tx) -> tuple[int, list[str]]:
    """Every revealed secret in the ledger, every campaign's, held to its commitment:
    its recorded label, salt and text must hash to it, and a seal of that label
    with that commitment must come before it. How many were checked, and one line
    for each that does not hold."""
    sealed: dict[tuple[str, str], set[str]] = {}
    problems, checked = [], 0
    for e in tx.read(types=["secret.sealed", "secret.revealed"]):
        p = e.payload
        if e.type == "secret.sealed":
            sealed.setdefault((e.campaign, key(p["label"])), set()).add(p["commitment"])
            continue
        checked += 1
        where = f"event {e.position} (secret.revealed, campaign {e.campaign})"
        if not rules.holds(p["label"], p["salt"], p["text"], p["commitment"]):
            problems.append(f"{where}: the revealed text and salt of {p['label']!r} do not hash to its commitment "
                            f"{p['commitment'][:16]}…")
        elif p["commitment"] not in sealed.get((e.campaign, key(p["label"])), set()):
            problems.append(f"{where}: {p['label']!r} was never sealed with the commitment "
                            f"{p['commitment'][:16]}… before it was revealed")
    return checked, problems


def secret_events(ctx) -> list[dict]:
    """The seals and reveals the point sees, shaped as `tally export` writes them, for a
    check that recomputes them elsewhere (a player's browser)."""
    return [{"position": e.position, "campaign": e.campaign, "type": e.type, "payload": dict(e.payload)}
            for e in ctx.events(types=["secret.sealed", "secret.revealed"])]
