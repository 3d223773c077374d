"""Recipe runs owned by the supervisor: records (model, persistence), the step runner, and
the engine that starts, resumes and reports runs (one run of a recipe at a time)."""
