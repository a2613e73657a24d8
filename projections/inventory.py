"""The inventory read model (seed 004 l.552-564, l.766): what each character
carries, slot by slot, and how much it can carry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from projections.frozen import replace
from ledger.names import key

BASE_SLOTS = 12  # l.553: "Each character has twelve Inventory Slots"
FOLLOWER_SLOTS = 3  # l.559: "Porters and other human hirelings/Followers may each carry three Slots"


@dataclass(frozen=True)
class Item:
    name: str
    slots: int = 1
    depletion: Optional[int] = None
    last_use: bool = False  # a Depletion Check came up: one use left (l.563)
    cash: int = 0
    artifact: bool = False
    carries: int = 0

    def view(self) -> dict:
        return {"name": self.name, "slots": self.slots, "depletion": self.depletion, "last_use": self.last_use,
                "cash": self.cash, "artifact": self.artifact, "carries": self.carries}


@dataclass(frozen=True)
class Inventory:
    packs: dict[str, tuple[Item, ...]] = field(default_factory=dict)  # character key -> items, oldest first

    def of(self, character: str) -> tuple[Item, ...]:
        return self.packs.get(key(character), ())

    def item(self, character: str, name: str) -> Optional[Item]:
        return next((i for i in self.of(character) if key(i.name) == key(name)), None)


def used(items: tuple[Item, ...]) -> int:
    return sum(i.slots for i in items)


def capacity(items: tuple[Item, ...], followers: int) -> int:
    """Twelve Slots, three more for each Follower (l.559), and what pack animals
    and carts carry (l.560)."""
    return BASE_SLOTS + FOLLOWER_SLOTS * followers + sum(i.carries for i in items)


def load(world, character: str) -> tuple[int, int]:
    """(Slots used, Slots the character can carry)."""
    items = world.inventory.of(character)
    found = world.stable.character(character)
    return used(items), capacity(items, len(found.followers) if found else 0)


TYPES = frozenset({"item.gained", "item.dropped", "item.depletion_checked", "item.given", "commodity.converted",
                   "gear.broken"})


def _set(state: Inventory, character: str, items: tuple[Item, ...]) -> Inventory:
    return replace(state, packs={**state.packs, key(character): items})


def _without(state: Inventory, character: str, name: str) -> tuple[Item, ...]:
    """The character's items but the one named, which must be there."""
    items = state.of(character)
    kept = tuple(i for i in items if key(i.name) != key(name))
    if len(kept) == len(items):
        raise LookupError(f"{character} carries no {name}")
    return kept


def apply(state: Inventory, e: Envelope) -> Inventory:
    p = e.payload
    if e.type == "item.gained":
        item = Item(p["item"], p["slots"], p["depletion"], False, p["cash"], p["artifact"], p["carries"])
        return _set(state, p["character"], state.of(p["character"]) + (item,))
    if e.type in ("item.dropped", "commodity.converted"):
        return _set(state, p["character"], _without(state, p["character"], p["item"]))
    if e.type == "item.depletion_checked":
        if p["result"] == "expended":
            return _set(state, p["character"], _without(state, p["character"], p["item"]))
        if p["result"] == "last_use":
            items = tuple(replace(i, last_use=True) if key(i.name) == key(p["item"]) else i
                          for i in state.of(p["character"]))
            return _set(state, p["character"], items)
        return state
    if e.type == "item.given":
        item = state.item(p["character"], p["item"])
        state = _set(state, p["character"], _without(state, p["character"], p["item"]))
        return _set(state, p["to"], state.of(p["to"]) + (item,))
    if e.type == "gear.broken":
        for name in p["broken"]:
            state = _set(state, p["character"], _without(state, p["character"], name))
        return state
    return state
