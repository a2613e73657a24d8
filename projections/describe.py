"""One readable line per event, for listings (`tally log`).

Each read model's table gives the lines of the events it folds
(projections/handlers.py); the types no read model folds are described in
the one table below. An event of a type nobody describes (a newer tally's,
or a test's) is shown as its payload's fields."""

from __future__ import annotations

from ledger.envelope import Envelope
from projections import dice, world
from projections.dice import checked  # noqa: F401  (a roll's check in words: the CLI prints it beside a roll)
from projections.handlers import Line, lines

# The event types no read model folds: described only. Rolls whose outcome the
# referee records as other events, the ledger's own bookkeeping, the checkpoints
# (projections/checkpoints.py reads them by type), notes and scheduled jobs.
NOT_FOLDED: dict[str, Line] = {
    "ledger.voided": lambda p: f"voided event {p['target']} ({p['target_type']}): {p['reason']}",
    "ledger.ruling": lambda p: f"ruled accepted by {p['ruled_by']} ({p['ruling']}), although it breaks {p['breaks']}",
    "checkpoint.key_recorded": lambda p: f"checkpoint key {p['key_id']} for the log {p['origin']}",
    "checkpoint.witness_added": lambda p: f"witness {p['name']} (key {p['key_id']})",
    "checkpoint.signed": lambda p: f"checkpoint of {p['size']} events signed ({p['occasion']}), "
                                   f"root {p['root'][:12]}…",
    "checkpoint.cosigned": lambda p: f"witness {p['witness']} cosigns the checkpoint of {p['size']} events",
    "note.recorded": lambda p: f"note: {p['title']}" + (f" — {p['text']}" if p.get("text") else "")
                               + (f" (from {p['source']})" if p.get("source") else ""),
    "schedule.added": lambda p: f"job {p['job']} ({p['kind']}) from {p['anchor_date']}",
    "schedule.removed": lambda p: f"job {p['job']} removed",
    "schedule.reminder": lambda p: f"reminder [{p['run']}]: {p['text']}",
    "god.warning": lambda p: f"{p['character']}: a warning sign: {p['why']}",
    "boast.passed": lambda p: f"{p['character']} refuses the stakes {p['to']} raised (+{p['complications']}): "
                              f"{p['to']} takes up the boast: {p['boast']}",
    "wound.open_checked": lambda p: f"{p['character']} open wound {p['wound']}: d6 {p['die']}"
                                    + (" - dies" if p["died"] else ""),
}

TABLES = (*world.TABLES, dice.TABLE)  # every read model's table of handlers
_LINES = lines(TABLES, NOT_FOLDED)


def line(envelope: Envelope) -> str:
    describe = _LINES.get(envelope.type)
    if describe is None:
        return " ".join(f"{k}={v}" for k, v in envelope.payload.items() if v is not None)
    return describe(envelope.payload)
