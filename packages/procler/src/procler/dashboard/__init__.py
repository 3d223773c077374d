"""The web dashboard: static pages (plain ES modules, no build step) served by the
supervisor's TCP listener, and the login that turns a one-time URL into a session."""
