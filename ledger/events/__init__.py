"""Every event type the ledger knows, one module per area."""

from ledger.events import calendar, campaign, coeac, dice, downtime, gods, skirmish, stable, wolves, xp  # noqa: F401  (registers the types)
from ledger.events.registry import EventModel, decode, known_types, model_for, register

__all__ = ["EventModel", "decode", "known_types", "model_for", "register"]
