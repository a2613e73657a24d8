"""dice.rolled as a roll at the table records it, without Pydantic.

A roll is the command a referee runs most, and importing Pydantic and building
the DiceRolled model was about as much CPU as a cold `tally roll`'s every other
module together (issue 29). What a roll records is all tally's own making (the
parsed expression, the faces, the total, the epoch, a checked target), so a
plain record that checks each field's type does the model's work for it. Its
payload is the one DiceRolled would store: the same fields in the same order,
the same defaults (tests/test_rolled.py holds the two equal, and fails the day
DiceRolled gains a field this record lacks). DiceRolled (ledger/events/dice.py)
stays the model that decodes and validates every stored dice.rolled, and the one
`tally import-rolls` records.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

TYPE = "dice.rolled"
SCHEMA_VERSION = 3  # DiceRolled.schema_version
AGAINST = ("below", "at_most", "at_least", "above", "ob")  # RollChecked.against
BANDS = ("epic success", "epic failure")  # RollChecked.band


class Rolled:
    """One dice.rolled event of a roll: what the store asks of an event model."""

    __slots__ = ("_payload",)
    schema_version = SCHEMA_VERSION

    def __init__(self, *, expression: str, dice: Sequence[int], total: int, epoch: int, nonce: Optional[int],
                 verifiable: bool, character: Optional[str] = None, why: Optional[str] = None,
                 check: Optional[dict[str, Any]] = None, on: Optional[dict[str, str]] = None) -> None:
        self._payload = {
            "expression": _typed(expression, str, "expression"), "dice": _ints(dice, "dice"),
            "total": _typed(total, int, "total"), "epoch": _typed(epoch, int, "epoch"),
            "nonce": _typed(nonce, int, "nonce", optional=True),
            "verifiable": _typed(verifiable, bool, "verifiable"),
            "character": _typed(character, str, "character", optional=True),
            "why": _typed(why, str, "why", optional=True),
            # What only a roll brought in from another tool carries (DiceRolled's defaults).
            "source": None, "source_id": None, "speaker": None, "rolled_at": None, "dropped": [],
            "exact_total": None,
            "check": None if check is None else _checked(check),
            "on": None if on is None else _on(on),
        }

    @classmethod
    def type_name(cls) -> str:
        return TYPE

    def __getattr__(self, name: str):
        # A field read as the model's attribute (commands/batch.py reads dice and total); the
        # check stays a plain dict here, so it is not offered as the model's RollChecked.
        if name not in ("check", "on", "_payload") and name in self._payload:
            value = self._payload[name]
            return list(value) if isinstance(value, list) else value
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def payload(self) -> dict[str, Any]:
        """The payload as stored, a fresh copy each time (as a model's dump is)."""
        p = self._payload
        return {**p, "dice": list(p["dice"]), "dropped": [], "check": None if p["check"] is None else dict(p["check"]),
                "on": None if p["on"] is None else dict(p["on"])}


def _typed(value, kind: type, field: str, optional: bool = False):
    # bool is an int to Python, never to the model: a flag where a number belongs is a bug.
    if (value is None and optional) or (type(value) is kind) or (kind is str and isinstance(value, str)):
        return value
    raise TypeError(f"dice.rolled {field}: {value!r} is not {'an' if kind is int else 'a'} {kind.__name__}")


def _ints(values: Sequence[int], field: str) -> list[int]:
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"dice.rolled {field}: {values!r} is not a list of faces")
    return [_typed(v, int, field) for v in values]


def _checked(check: dict[str, Any]) -> dict[str, Any]:
    unknown = set(check) - {"against", "target", "passed", "margin", "epic", "band"}
    if unknown:
        raise TypeError(f"dice.rolled check: unknown field(s) {sorted(unknown)}")
    if check.get("against") not in AGAINST or check.get("band") not in (None, *BANDS):
        raise TypeError(f"dice.rolled check: {check!r} compares or bands otherwise than a check can")
    return {"against": check["against"], "target": _typed(check.get("target"), int, "check.target"),
            "passed": _typed(check.get("passed"), bool, "check.passed"),
            "margin": _typed(check.get("margin"), int, "check.margin"),
            "epic": _typed(check.get("epic"), int, "check.epic", optional=True), "band": check.get("band")}


def _on(on: dict[str, str]) -> dict[str, str]:
    """The sealed table a roll was made on (RolledOn): its label and commitment."""
    if set(on) != {"label", "commitment"}:
        raise TypeError(f"dice.rolled on: {on!r} is not a sealed table's label and commitment")
    return {"label": _typed(on["label"], str, "on.label"), "commitment": _typed(on["commitment"], str, "on.commitment")}
