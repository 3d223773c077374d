"""Process output: capture from pipes (capture), durable storage (store), questions (query).

The supervisor reads each child's stdout/stderr with `contexts.pipe_reader` (a callback on
the loop, lines split by `capture.LineSplitter`; `capture.read_batches` and
`capture.capture_stream` do the same from a StreamReader), appends the lines to one `store.LogStore` per project and calls
`LogStore.flush()` every 50-100 ms. Readers (CLI, server) only read the files, through
`query.query`, `query.follow` and `query.last_lines`; they never talk to the writer.
"""
