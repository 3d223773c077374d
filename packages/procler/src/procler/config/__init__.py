"""Procler's project configuration: discovery, loading with positions, validation, explanation."""
