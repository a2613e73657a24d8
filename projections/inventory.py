"""The inventory read model (seed 004 l.552-564, l.766): what each character
carries, slot by slot, and how much it can carry."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.errors import Unfoldable
from projections.handlers import Table
from ledger.names import key

BASE_SLOTS = 12  # l.553: "Each character has twelve Inventory Slots"
FOLLOWER_SLOTS = 3  # l.559: "Porters and other human hirelings/Followers may each carry three Slots"


class Item(Struct, frozen=True):
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


class Inventory(Struct, frozen=True):
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


def _set(state: Inventory, character: str, items: tuple[Item, ...]) -> Inventory:
    return replace(state, packs={**state.packs, key(character): items})


def _at(items: tuple[Item, ...], character: str, name: str) -> int:
    """Where the item named is among the character's: of two of one name (a second horse),
    the first carried, as ``Inventory.item`` finds it; Unfoldable if it is not carried (a
    void withdrew it, or a fact logged late would use it up before this event)."""
    at = next((n for n, i in enumerate(items) if key(i.name) == key(name)), None)
    if at is None:
        raise Unfoldable(f"{character} carries no {name}")
    return at


def _without(state: Inventory, character: str, name: str) -> tuple[Item, ...]:
    """The character's items but the one named, which must be there."""
    items = state.of(character)
    at = _at(items, character, name)
    return items[:at] + items[at + 1:]


TABLE = Table("inventory")


@TABLE.on("item.gained", line=lambda p: f"{p['item']} goes into {p['character']}'s inventory "
          f"({p['slots']} Slot{'s' if p['slots'] != 1 else ''}"
          + (f", Depletion {p['depletion']}+" if p["depletion"] else "")
          + (f", worth {p['cash']} Cash" if p["cash"] else "")
          + (", artifact" if p["artifact"] else "")
          + (f", carries {p['carries']}" if p["carries"] else "") + f"): {p['why']}")
def _gained(state: Inventory, p: dict, e: Envelope) -> Inventory:
    item = Item(p["item"], p["slots"], p["depletion"], False, p["cash"], p["artifact"], p["carries"])
    return _set(state, p["character"], state.of(p["character"]) + (item,))


@TABLE.on("commodity.converted", line=lambda p: f"{p['character']} turns {p['item']} into {p['cash']} Cash")
@TABLE.on("item.dropped", line=lambda p: f"{p['character']} no longer carries {p['item']}: {p['why']}")
def _dropped(state: Inventory, p: dict, e: Envelope) -> Inventory:
    return _set(state, p["character"], _without(state, p["character"], p["item"]))


def _depletion_as_carried(world, p: dict, day: int) -> Optional[str]:
    """004 l.563: an item on its last use is expended by its next use, with no roll; any other
    is rolled for. A fact logged late that leaves the item otherwise breaks this check."""
    item = world.inventory.item(p["character"], p["item"])
    if item is None:
        return None  # not carried at all: the fold says so (Unfoldable)
    if item.last_use and p["result"] != "expended":
        return (f"{p['character']}'s {p['item']} would be on its last use, which this use would expend "
                "without a roll (004 l.563)")
    if not item.last_use and p["result"] == "expended":
        return (f"{p['character']}'s {p['item']} would not be on its last use: this use would roll its "
                "Depletion (004 l.563)")
    return None


@TABLE.on("item.depletion_checked", line=lambda p: f"{p['character']}'s {p['item']} ({p['score']}+): "
          + (f"d20 {p['roll']}, " if p["roll"] is not None else "")
          + {"lasts": "lasts", "last_use": "one use left", "expended": "expended"}[p["result"]],
          premise=_depletion_as_carried)
def _depletion(state: Inventory, p: dict, e: Envelope) -> Inventory:
    if p["result"] == "expended":
        return _set(state, p["character"], _without(state, p["character"], p["item"]))
    if p["result"] == "last_use":
        items = state.of(p["character"])
        at = _at(items, p["character"], p["item"])
        return _set(state, p["character"], items[:at] + (replace(items[at], last_use=True),) + items[at + 1:])
    return state


@TABLE.on("item.given", line=lambda p: f"{p['character']} gives {p['item']} to {p['to']}: {p['why']}")
def _given(state: Inventory, p: dict, e: Envelope) -> Inventory:
    item = state.of(p["character"])[_at(state.of(p["character"]), p["character"], p["item"])]
    state = _set(state, p["character"], _without(state, p["character"], p["item"]))
    return _set(state, p["to"], state.of(p["to"]) + (item,))


@TABLE.on("gear.broken", line=lambda p: f"{p['character']}: Broken Gear: " + (", ".join(p["broken"]) or "nothing")
          + " broken" + (f"; {', '.join(p['saved'])} saved (artifact)" if p["saved"] else ""))
def _broken(state: Inventory, p: dict, e: Envelope) -> Inventory:
    for name in p["broken"]:
        state = _set(state, p["character"], _without(state, p["character"], name))
    return state


apply = TABLE.apply
