"""The expression language (the bottom layer): parsing under a whitelist, exact values, the evaluation budget,
binders (bounds of free names), built-in functions, static analyses. Imports nothing of the project above it."""
