"""Every event type the ledger knows, one module per area.

The modules are imported when first needed — by a command that records one
of their events, or by the registry when it decodes — so a roll at the table
does not build the models of every rules module first."""

MODULES = ("calendar", "campaign", "checkpoints", "coeac", "dice", "downtime", "gods", "skirmish", "stable", "wolves",
           "xp")

__all__ = ["EventModel", "MODULES", "decode", "known_types", "model_for", "register"]


def __getattr__(name: str):
    # The registry (and Pydantic) only when asked for: the read path imports
    # ledger.events.upcasters, and a fold needs no model.
    if name in __all__:
        from ledger.events import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'ledger.events' has no attribute {name!r}")
