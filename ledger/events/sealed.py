"""Events of sealed secrets (docs/secrets.md): a commitment published, and
later the text and salt that make it."""

from typing import Literal

from ledger.events.registry import EventModel, register


@register
class SecretSealed(EventModel):
    """A secret sealed: only its label and commitment are public; its text and
    salt wait in the secrets store (ledger/secrets.py) for the reveal."""

    type: Literal["secret.sealed"] = "secret.sealed"
    label: str
    commitment: str


@register
class SecretRevealed(EventModel):
    """A sealed secret revealed: SHA-256 of the canonical JSON of its label,
    salt and text is its commitment (ledger/sealed.py)."""

    type: Literal["secret.revealed"] = "secret.revealed"
    label: str
    commitment: str
    salt: str
    text: str
