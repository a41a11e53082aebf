"""The application (the top layer): the command line and its subcommands (argument parsing and printing; the
work is :mod:`nimjos.api`), the pytest plugin, the process pool of claims, progress bars."""
