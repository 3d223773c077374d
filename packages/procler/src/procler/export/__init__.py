"""Hand a stack to the engines that schedule for real: pure functions from the typed
ProjectConfig to file contents (compose, systemd), each with a fidelity report naming every
field that could not be carried or was downgraded. Nothing here writes files or reads argv.
"""
