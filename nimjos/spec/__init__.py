"""Specs: loading TOML into typed claims and games, compiling each claim once (plan), the resource budget,
and the names a spec may use. Imports games, josephus and lang."""
