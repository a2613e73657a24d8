"""Every event type the ledger knows, one module per area.

The modules are imported when first needed — by a command that records one
of their events, or by the registry when it decodes — so a roll at the table
does not build the models of every rules module first."""

from ledger.events.registry import EventModel, decode, known_types, model_for, register

MODULES = ("calendar", "campaign", "coeac", "dice", "downtime", "gods", "skirmish", "stable", "wolves", "xp")

__all__ = ["EventModel", "MODULES", "decode", "known_types", "model_for", "register"]
