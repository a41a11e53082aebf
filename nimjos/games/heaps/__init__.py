"""Games of any number of heaps: take-and-break rules as data (octal and hexadecimal codes, Grundy's game,
Lasker's Nim), their Grundy sequences (plain mex and the rare-value method, compiled), heap games as games
of the language (a position is a tuple of heaps, its value the nim-sum), Moore's Nim, and the periodicity
theorems that turn a finite computation into a proof for every heap size."""
