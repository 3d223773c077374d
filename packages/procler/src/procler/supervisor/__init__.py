"""The per-project supervisor: owns processes, reconciles desired state, serves HTTP on a unix socket."""
