"""Every event type the ledger knows, one module per area, and their
registry (ledger/events/registry.py: the models, the one decoder, the
upcasters it applies)."""
