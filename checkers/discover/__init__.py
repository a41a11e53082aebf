"""Discovery: from a game's table of Grundy values (computed from its moves) to the simplest description in a few
classes, printed as a claim of the spec format and checked by the methods like any claim (``nimjos discover``)."""
