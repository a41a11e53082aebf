"""The application (the top layer): the command line and its subcommands, the public API, the pytest plugin,
the process pool of claims, progress bars."""
