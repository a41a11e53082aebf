"""The results store: every verdict of every check, in SQLite. Imports the verdict model and below."""
