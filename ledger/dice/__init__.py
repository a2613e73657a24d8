"""Dice: expressions (a grammar), their derivation from a committed seed
(DESIGN.md §4) and their exact odds."""
