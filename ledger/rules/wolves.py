"""Wolves Upon the Coast (seed 000): a band of ex-thralls on a raiding ship."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ledger.errors import BadInput

CHARACTERISTICS = ("Strength", "Agility", "Constitution")  # l.25-32, rolled 3d6 (l.34)
CHARACTERISTIC_ROLL = "3d6"
HIT_DIE = "d6"  # l.49: "With 1 Hit Dice ... rolled to determine how many HP they have. All Hit Dice are d6s."
ATTACK_BONUS = 2  # l.50
LANGUAGES_DIE = "1d6"  # l.51: "Knowing 1d6/2 languages" (the halving is the setting languages_rounding)
HACKSILVER = "3d6*10"  # l.48: "Anything not spent is lost."
COMPANION_SILVER = 1000  # l.248: one Companion per 1000sp of wealth owned

# l.56: "Sharing a small raiding vessel (Karvi) with twelve rowers ... enough food and water for all
# hands to survive for four days. You have travelled two days from the home of your captor."
STARTING_SHIP = {"name": "the master's Karvi", "kind": "Karvi", "rowers": 12, "food_days": 4,
                 "how": "the dead master's raiding vessel, two days from his home (000 l.56)"}

# l.250-260: Hirelings' wages, silver pennies a day.
WAGES = {"Non-combat": 2, "Skirmisher": 5, "Footman": 10, "Marine": 12, "Armoured Footman": 20, "Horsemen": 40}

# l.284-296: HD, hexes a day at sea (on rivers), encumbrance carried, crew (crew/marines), value in sp,
# and whether it can be beached (†, l.296). A new ship costs three times its value (l.300).
SHIPS = {
    "Raft": {"hd": 1, "speed": 3, "river": 3, "encumbrance": 20, "crew": "1", "value": 10, "beached": True},
    "Boat": {"hd": 2, "speed": 4, "river": 4, "encumbrance": 40, "crew": "2-10", "value": 50, "beached": True},
    "Karvi": {"hd": 4, "speed": 6, "river": 4, "encumbrance": 60, "crew": "8-24", "value": 1000, "beached": True},
    "Knarr": {"hd": 5, "speed": 7, "river": 3, "encumbrance": 100, "crew": "8-12/2", "value": 2000,
              "beached": False},
    "Snekkja": {"hd": 6, "speed": 8, "river": 4, "encumbrance": 100, "crew": "20-50", "value": 3000,
                "beached": True},
    "Galley, Small": {"hd": 6, "speed": 8, "river": 3, "encumbrance": 160, "crew": "50/10", "value": 5000,
                      "beached": False},
    "Galley, Large": {"hd": 8, "speed": 10, "river": None, "encumbrance": 360, "crew": "120/30", "value": 8000,
                      "beached": False},
    "Skeid": {"hd": 9, "speed": 9, "river": 5, "encumbrance": 240, "crew": "60-80", "value": 10000,
              "beached": True},
}
SHIP_VALUES = {kind: ship["value"] for kind, ship in SHIPS.items()}
NEW_SHIP_FACTOR = 3

BOAST_REWARDS = {"hd": "hit_dice", "ab": "attack_bonus"}  # l.264: "gains 1HD or +1 Attack Bonus"

# The price list, silver pennies (None: listed without a price). Where each table is in the seed.
PRICE_LINES = {"weapons": "l.64-84", "ammunition": "l.92", "armour": "l.94-101", "supplies": "l.117-141",
               "livestock": "l.143-153"}
# l.94-101: the Armour Class each armour gives (a shield takes 1 off it) and its weight, which
# moves the Dodge roll (l.42-44: none +4, Light +2, Heavy -2; l.103: Byzantine Plate does not
# reduce it; Medium is not named: setting medium_dodge).
ARMOUR = {"Unarmoured": (9, "none"), "Leather (Light)": (7, "light"), "Maille (Medium)": (5, "medium"),
          "Full-Length Maille (Heavy)": (3, "heavy"), "Byzantine Plate (Heavy)": (3, "plate")}
SHIELD = "Shield"
SHIELD_AC = -1
DODGE = {"none": 4, "light": 2, "heavy": -2, "plate": 0}
MEDIUM_DODGE = {"none": 0, "light": 2, "heavy": -2}  # setting medium_dodge: Maille read as no, light or heavy armour
# l.36-40, l.167-171: a d20, at least the number.
SAVES = {"Dodging": 15, "Physique": 13, "Warding": 17}
SAVE_DIE = "1d20"
# l.30, l.32: "An Agility of 15+ gives a +1 bonus to Dodging Saves", "A Constitution of 15+ ... Physique Saves".
SAVE_CHARACTERISTIC = {"Dodging": "Agility", "Physique": "Constitution"}
CHARACTERISTIC_BONUS_AT = 15

PRICES: dict[str, dict[str, Optional[int]]] = {
    "weapons": {
        "Battle-Axe": 10, "Club": 5, "Dagger": 5, "Flail": 8, "Greatsword": 40, "Hand-Axe": 6, "Polearm": 15,
        "Poleaxe": 20, "Javelin": 5, "Longbow": 30, "Mace": 8, "Quarterstaff": 5, "Shortbow": 15, "Shortsword": 8,
        "Sling": 1, "Spear": 4, "Sword": 12, "Two-Handed Axe": 25, "Warhammer": 25,
    },
    "ammunition": {"Arrow": 1, "Sling Bullets (5)": 1},
    "armour": {
        "Unarmoured": 0, "Leather (Light)": 15, "Maille (Medium)": 75, "Full-Length Maille (Heavy)": 150,
        "Byzantine Plate (Heavy)": None, "Shield": 15,
    },
    "supplies": {
        "Backpack": 5, "Bandages (5)": 10, "Bottle": 5, "Box, Large Iron": 30, "Box, Small Iron": 15,
        "Candle, Tallow": 1, "Candle, Wax": 2, "Cart": 50, "Case, Map": 5, "Checkers": 5,
        "Chest, Large Wooden": 15, "Chest, Small Wooden": 8, "Compass": 100, "Crowbar": 5, "Dice": 2,
        "Flint & Steel": 5, "Grappling Hook": 10, "Hammer & Wooden Stakes": 5, "Laboratory (portable)": 150,
        "Lantern, Bullseye": 12, "Lantern, Hooded": 7, "Lock-Picks": 25, "Map, Local": 20,
        "Mirror, Large Metal": 10, "Mirror, Small Silver": 20, "Mirror, Small Metal": 5, "Net": 10,
        "Oil, Pint Flask": 5, "Pole, 10'": 5, "Ration, Dry Day": 5, "Ration, Trail Day": 2,
        "Rope, 50' Silken": 70, "Rope, 50' Hemp": 5, "Sack": 1, "Shovel": 5, "Shovel, Wooden": 5,
        "Water or Wineskin": 15, "Skiing Equipment": 15, "Sled": 20, "Sleeping Bag": 2, "Snare": 1,
        "Iron Spike": 3, "Tent": 15, "Tinderbox": 10, "Torches (6)": 1, "Wagon": 150,
    },
    "livestock": {
        "Chicken": 1, "Mule": 20, "Cow": 10, "Ox": 15, "Dog": 15, "Pigeon": 1, "Donkey": 8, "Piglet": 1, "Goat": 3,
        "Pig": 3, "Hawk": 20, "Pony": 15, "Horse, Draught": 30, "Sheep": 2, "Horse, War": 200, "Songbird": 25,
        "Horse, Riding": 25,
    },
}
_LISTED = {item: (table, price) for table, items in PRICES.items() for item, price in items.items()}


def companions_allowed(silver: int) -> int:
    return max(0, silver) // COMPANION_SILVER


def languages_known(die: int, rounding: str) -> tuple[int, int]:
    """1d6/2 languages (l.51) as (known, half known) under the setting
    languages_rounding: ``up`` reads 1-3, ``down`` 0-3, ``halves`` keeps the
    odd half as a language 'half known' (l.52: "enough to conduct trade")."""
    if rounding == "up":
        return -(-die // 2), 0
    if rounding == "down":
        return die // 2, 0
    return die // 2, die % 2


def hireling_type(name: str) -> str | None:
    return next((t for t in WAGES if t.lower() == name.strip().lower()), None)


def ship_kind(name: str) -> str | None:
    wanted = _words(name)
    return next((k for k in SHIPS if _words(k) == wanted), None)


# -- the price list -------------------------------------------------------------

@dataclass(frozen=True)
class Purchase:
    """One line bought: the listed item (or the name given for one the list lacks),
    how many, the price of one, and whether that price was the referee's."""

    item: str
    quantity: int
    price: int
    stated: bool

    @property
    def label(self) -> str:
        return self.item if self.quantity == 1 else f"{self.item} x{self.quantity}"

    @property
    def cost(self) -> int:
        return self.quantity * self.price


SPEC = re.compile(r"^(?P<item>.*?)(?:\*(?P<quantity>[^=*]*))?(?:=(?P<price>[^=]*))?$")


def purchase(spec: str) -> Purchase:
    """``ITEM``, ``ITEM*N`` or ``ITEM[*N]=PRICE`` (the price of one): a listed item
    costs its list price; an item the list lacks, or lists without a price,
    needs the price stated."""
    match = SPEC.match(spec.strip())
    name = match["item"].strip() if match else ""
    if not name:
        raise BadInput(f"a purchase is ITEM, ITEM*N or ITEM=PRICE, not {spec!r}")
    quantity = _whole(match["quantity"], "a quantity", spec) if match["quantity"] is not None else 1
    stated = _whole(match["price"], "a price", spec) if match["price"] is not None else None
    if quantity < 1:
        raise BadInput(f"buy at least one ({spec!r})")
    listed = find_item(name)
    if listed is None:
        if stated is None:
            raise BadInput(f"{name!r} is not on the price list (000 l.64-153): state its price, {name}=N, "
                           "or name a listed item")
        return Purchase(name, quantity, stated, True)
    table, price = _LISTED[listed]
    where = f"000 {PRICE_LINES[table]}"
    if price is None:
        if stated is None:
            raise BadInput(f"{listed} has no price in the list ({where}): state one, {listed}=N")
        return Purchase(listed, quantity, stated, True)
    if stated is not None and stated != price:
        raise BadInput(f"{listed} costs {price} sp in the list ({where}), not {stated}: drop ={stated}")
    return Purchase(listed, quantity, price, False)


def find_item(name: str) -> Optional[str]:
    """The listed item a name means: the same words in any order (``war horse``
    is ``Horse, War``), or the one item whose name holds every word given
    (``leather`` is ``Leather (Light)``); None if none; a refusal if several."""
    wanted = _words(name)
    exact = [item for item in _LISTED if _words(item) == wanted]
    if exact:
        return exact[0]
    partial = [item for item in _LISTED if wanted and wanted <= _words(item)]
    if len(partial) > 1:
        raise BadInput(f"{name!r} could be {', '.join(partial)}: name one")
    return partial[0] if partial else None


def _words(name: str) -> frozenset[str]:
    # Plurals fold to the singular, so "arrows" finds Arrow and "torches" Torches (6).
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") else w
                     for w in re.findall(r"[^\W_]+", name.casefold()))


def _whole(text: str, what: str, spec: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise BadInput(f"{what} is a whole number, not {text!r} (in {spec!r})")
    return int(text)


def armour_worn(gear: Sequence[str]) -> tuple[str, bool]:
    """The armour a character wears, read off what it bought: the one giving the best
    (lowest) AC, or Unarmoured; and whether it has a shield."""
    owned = {_item_of(label) for label in gear}
    worn = min((a for a in ARMOUR if a in owned), key=lambda a: ARMOUR[a][0], default="Unarmoured")
    return worn, SHIELD in owned


def armour_class(gear: Sequence[str]) -> int:
    """l.94-101: the armour's AC, 1 less with a shield."""
    worn, shield = armour_worn(gear)
    return ARMOUR[worn][0] + (SHIELD_AC if shield else 0)


def dodge_modifier(armour: str, medium_dodge: str) -> int:
    weight = ARMOUR[armour][1]
    return MEDIUM_DODGE[medium_dodge] if weight == "medium" else DODGE[weight]


def save_modifiers(save: str, characteristics: dict[str, int], gear: Sequence[str],
                   medium_dodge: str) -> list[tuple[str, int]]:
    """What moves a save's d20 (l.171), from the sheet: Agility or Constitution 15+
    (+1, l.30-32), and on a Dodge roll the armour worn (l.42-44, l.103)."""
    parts = []
    stat = SAVE_CHARACTERISTIC.get(save)
    if stat and characteristics.get(stat, 0) >= CHARACTERISTIC_BONUS_AT:
        parts.append((f"{stat} {characteristics[stat]} (000 l.30-32)", 1))
    if save == "Dodging":
        armour, _ = armour_worn(gear)
        parts.append((f"{armour} worn (000 l.42-44)", dodge_modifier(armour, medium_dodge)))
    return parts


def _item_of(label: str) -> str:
    """A gear line as the sheet keeps it (``Arrow x20``) without its count."""
    head, _, count = label.rpartition(" x")
    return head if head and count.isdigit() else label
