"""The audit: re-derive every roll of every revealed epoch from the events
alone — what any player can do with `tally log --json`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ledger.dice.derivation import commitment, derive
from ledger.dice.expression import parse
from ledger.envelope import Envelope
from ledger.errors import TallyError
from projections.dice import fold


@dataclass
class EpochAudit:
    epoch: int
    revealed: bool
    commitment: str
    commitment_ok: bool | None = None
    player_seed: bool = False  # the players gave a client seed K (without one the referee chose every input)
    derived: int = 0  # derived rolls, revealed or not
    rolls_checked: int = 0
    hand_rolls: int = 0
    mismatches: list[dict] = field(default_factory=list)

    @property
    def unseeded(self) -> bool:
        """Derived rolls made with no player seed: they match, but could have been known in advance."""
        return self.derived > 0 and not self.player_seed

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.commitment_ok is not False

    def as_dict(self) -> dict:
        return {"epoch": self.epoch, "revealed": self.revealed, "commitment": self.commitment,
                "commitment_ok": self.commitment_ok, "player_seed": self.player_seed,
                "derived_rolls": self.derived, "rolls_checked": self.rolls_checked,
                "hand_rolls": self.hand_rolls, "mismatches": self.mismatches, "ok": self.ok}


def audit(envelopes: Iterable[Envelope]) -> list[EpochAudit]:
    envelopes = list(envelopes)
    state = fold(envelopes)
    by_position = {e.position: e for e in envelopes}
    report = []
    for epoch in state.epochs:
        result = EpochAudit(epoch.number, revealed=not epoch.open, commitment=epoch.commitment,
                            player_seed=bool(epoch.client_seed), derived=epoch.nonces)
        report.append(result)
        rolls = [by_position[p] for p in epoch.rolls]
        result.hand_rolls = sum(1 for r in rolls if not r.payload["verifiable"])
        if epoch.open:
            continue
        result.commitment_ok = _commitment_ok(epoch.seed, epoch.commitment)
        if not result.commitment_ok:
            result.mismatches.append({"position": epoch.revealed_at,
                                      "reason": "SHA-256 of the revealed seed is not the commitment"})
            continue
        derived = [r for r in rolls if r.payload["verifiable"]]
        for expected_nonce, roll in enumerate(derived):
            result.rolls_checked += 1
            problem = _check_roll(roll, epoch.seed, epoch.client_seed, expected_nonce)
            if problem:
                result.mismatches.append({"position": roll.position, "reason": problem})
    return report


def _commitment_ok(seed: str, expected: str) -> bool:
    try:
        return commitment(seed) == expected
    except ValueError:
        return False


def _check_roll(roll: Envelope, seed: str, client_seed: str, expected_nonce: int) -> str | None:
    p = roll.payload
    if p["nonce"] != expected_nonce:
        return f"nonce {p['nonce']} where {expected_nonce} was due"
    try:
        faces, total = derive(parse(p["expression"]), seed, client_seed, p["nonce"])
    except TallyError as exc:
        return f"expression does not parse: {exc}"
    if faces != p["dice"]:
        return f"faces {p['dice']} recorded, {faces} derived"
    if total != p["total"]:
        return f"total {p['total']} recorded, {total} derived"
    return None
