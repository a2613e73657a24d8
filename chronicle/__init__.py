"""The chronicle: a read-only web view of a campaign through time (tally serve), and the same pages as a static site (tally chronicle)."""
