"""Hand a stack to the engines that schedule for real, or bring one in: pure functions from
the typed ProjectConfig to file contents (compose, systemd, kubernetes) and from another
tool's file to config data (Procfile, compose, Procler 0.3), each with fidelity warnings
naming every field that could not be carried. `write` is the only module that writes.
"""
