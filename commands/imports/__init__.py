"""Data from other tools, read into the ledger's own terms: roll logs
(Foundry VTT, Roll20, D&D Beyond as Avrae reads it) and calendars
(Fantasy-Calendar, Simple Calendar, Calendaria). One module per source
format; each says what it could not carry rather than guessing."""
