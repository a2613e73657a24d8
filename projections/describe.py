"""One readable line per event, for listings (`tally log`)."""

from __future__ import annotations

from typing import Callable

from ledger.envelope import Envelope


def _roll(p: dict) -> str:
    who = f"{p['character']}: " if p.get("character") else ""
    how = f"n={p['nonce']}" if p["verifiable"] else "by hand"
    why = f" — {p['why']}" if p.get("why") else ""
    return f"{who}{p['expression']} {p['dice']} = {p['total']} ({how}){why}"


_LINES: dict[str, Callable[[dict], str]] = {
    "campaign.created": lambda p: f"campaign {p['name']} ({', '.join(p['rules']) or 'no modules'}; "
                                  f"{p['calendar']['kind']} calendar)",
    "campaign.setting_changed": lambda p: f"setting {p['key']}: {p['previous']} -> {p['value']}",
    "ledger.voided": lambda p: f"voided event {p['target']} ({p['target_type']}): {p['reason']}",
    "dice.committed": lambda p: f"epoch {p['epoch']} opened, commitment {p['commitment'][:16]}…",
    "dice.client_seed_set": lambda p: f"epoch {p['epoch']} client seed {p['client_seed']!r}",
    "dice.revealed": lambda p: f"epoch {p['epoch']} revealed after {p['rolls']} roll(s): seed {p['seed'][:16]}…",
    "dice.rolled": _roll,
}


def line(envelope: Envelope) -> str:
    describe = _LINES.get(envelope.type)
    if describe is None:
        return " ".join(f"{k}={v}" for k, v in envelope.payload.items() if v is not None)
    return describe(envelope.payload)
