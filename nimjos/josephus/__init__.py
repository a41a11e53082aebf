"""The Josephus problem: the algorithms (survivor, elimination order, JJ), their compiled kernels, and the
Josephus functions of the spec language. Imports only nimjos.lang."""
