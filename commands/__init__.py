"""Commands: read the projected state, check the rules, return the events
to append — all inside one write transaction, or nothing at all."""
