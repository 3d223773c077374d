"""What Procler's tests share, imported as a package (`procler_testkit.harness` ...; the
test folders are on pytest's pythonpath, see the root pyproject.toml): the real CLI against
a temporary project (harness), the fakes of the OS seam (fakes), a supervisor in the test's
event loop (in_process), and the helpers of each test family."""
