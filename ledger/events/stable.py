"""Players, characters, sessions and treasure: core to every campaign."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class PlayerAdded(EventModel):
    type: Literal["player.added"] = "player.added"
    name: str


@register
class CharacterCreated(EventModel):
    type: Literal["character.created"] = "character.created"
    name: str
    player: str
    char_class: Optional[str] = None
    skills: dict[str, int] = {}
    saves: dict[str, int] = {}
    max_hp: Optional[int] = None
    # Figures brought in from a campaign already under way ("opening balances").
    opening: dict[str, int] = {}
    # A retiree's legacy received at creation (004 l.513-519), if any.
    inherited_from: Optional[str] = None
    inherited_skills: list[str] = []
    inherited_wealth: int = 0
    # Boons owed to the player's next new character (a death at session end).
    owed_boons: int = 0


@register
class CharacterDied(EventModel):
    """Schema 2 names the character ``character`` (schema 1: ``name``), as every
    other event about a character does; the upcaster is in upcasters.py."""

    type: Literal["character.died"] = "character.died"
    schema_version = 2
    character: str
    cause: str


@register
class CharacterRetired(EventModel):
    """Schema 2 records the faction roll's total and the Reputation it was
    rolled against (004 l.518), so a fact logged late under it is checked
    against the decision; schema 1 recorded neither (upcasters.py)."""

    type: Literal["character.retired"] = "character.retired"
    schema_version = 2
    name: str
    player: str
    boons: int
    wealth: int
    skill_points: int  # +1 to this many different Skills for the next new character
    wealth_ranks: int  # floor(Wealth / 3)
    rep_faction: Optional[str] = None
    faction_roll: Optional[int] = None  # 1d6 + one per full five Boons
    rep_before: Optional[int] = None  # the Reputation it had to beat


@register
class SessionOpened(EventModel):
    type: Literal["session.opened"] = "session.opened"
    number: int
    start: int
    activated: dict[str, str]  # player -> character
    income: bool
    # Characters activated although their dates overlap an expedition already
    # played elsewhere, with the referee's reason.
    overrides: dict[str, str] = {}


@register
class SessionJoined(EventModel):
    """A character joins the running session (004 l.15: a dead character's
    replacement "incorporated into play as soon as possible"), or a player
    who arrived late joins with one; from now on it is activated in it."""

    type: Literal["session.joined"] = "session.joined"
    number: int
    character: str
    player: str
    replaces: Optional[str] = None  # the player's character who died in this session


@register
class SessionClosed(EventModel):
    type: Literal["session.closed"] = "session.closed"
    number: int
    start: int
    end: int
    havens: list[str]


@register
class TreasureFound(EventModel):
    type: Literal["treasure.found"] = "treasure.found"
    cash: int  # the horde's size, in the campaign's currency
    source: str
    currency: str = "cash"  # cash (coeac's Cash dice) or sp (silver pennies)


@register
class TreasureDivided(EventModel):
    type: Literal["treasure.divided"] = "treasure.divided"
    total: int
    shares: dict[str, int]  # character -> amount
    set_aside: dict[str, int] = {}  # absent player -> amount held for them
    companions: dict[str, int] = {}  # companion -> half share (wolves, l.248)
    currency: str = "cash"


@register
class SetAsidePaid(EventModel):
    """A share held for an absent player, paid to the character they activate."""

    type: Literal["treasure.set_aside_paid"] = "treasure.set_aside_paid"
    player: str
    character: str
    cash: int  # the amount, in the currency below
    currency: str = "cash"


@register
class CashChanged(EventModel):
    type: Literal["cash.changed"] = "cash.changed"
    character: str
    delta: int
    why: str


@register
class BoonGained(EventModel):
    type: Literal["boon.gained"] = "boon.gained"
    character: str
    reason: str  # "session", "down-and-out", "replacement"


@register
class BoonOwed(EventModel):
    """A character died by the end of its session: its Boon goes to the
    player's newly rolled replacement (004 l.503), not yet created."""

    type: Literal["boon.owed"] = "boon.owed"
    player: str
    died: str
