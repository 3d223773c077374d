"""What officecli's tests share, imported as a package (the test folders are on pytest's
pythonpath, see the root pyproject.toml): documents and workbooks made in the tests, the
tools run in process or through their console entries, one module per tool family."""
