"""The files a SQLite ledger keeps beside its database, by their names'
endings, and the variable that names the referee's signing key anywhere:
what ledger/secrets.py and ledger/keys.py write, and what ledger/files.py
keeps every command from writing over."""

SECRETS_SUFFIX = ".secrets"  # tally.db -> tally.db.secrets: the dice seeds and the derived-data key
KEY_SUFFIX = ".key"  # tally.db -> tally.db.key: the referee's signing key, by default
KEY_ENV = "TALLY_KEY_FILE"  # another signing key file, wherever it is
