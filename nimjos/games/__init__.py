"""Games: declared games and built-in families, the reference engine (mex over the game graph), the fast
engines (nimjos.games.fast), the game functions of the spec language (G, options), periodicity of sequences."""
