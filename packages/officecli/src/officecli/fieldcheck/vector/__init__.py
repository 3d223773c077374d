"""The vectorised engine for large CSV/TSV files, on PyArrow (imported only here).

It never decides a finding itself. Each rule is compiled to column operations that find,
per batch of rows, the rows where the rule may fail (or may not be evaluable); those
candidate rows, usually few, go through the Python engine, which builds the findings
exactly as it does for small files. A cell of an unusual shape (`¥1,000`, `2026/4/1`, a
text in a number column) makes its row a candidate rather than being parsed here, so the
findings are those of the Python engine by construction. `unique` keeps its first-seen
keys as Arrow arrays (not Python objects), so memory stays that of the keys.
"""
