"""Tallystick's read side: pure folds of events into read models."""
