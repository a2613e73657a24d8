"""The `tally` command line: parse, call the ledger, print."""
