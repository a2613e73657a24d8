"""Tallystick's write side: the event envelope, the store, the hash chain,
dice, calendars and the commands that decide which events to append."""
