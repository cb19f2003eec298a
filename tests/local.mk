EXTRA_DIST += tests/lib.sh
TEST_EXTENSIONS = .sh
# A hung test must fail on its own, not eat CI's 90 minutes: each test gets 10 minutes.
SH_LOG_COMPILER = timeout -k 10 600 $(SHELL)
LOG_COMPILER = timeout -k 10 600

TESTS += tests/e2e/cli.sh tests/e2e/demo.sh tests/e2e/full.sh tests/e2e/demo_busy.sh tests/e2e/exit_codes.sh
dist_check_SCRIPTS += tests/e2e/cli.sh tests/e2e/demo.sh tests/e2e/full.sh tests/e2e/demo_busy.sh tests/e2e/exit_codes.sh
include tests/unit.mk
include tests/fields.mk
include tests/writer.mk
include tests/symbols.mk
include tests/watch.mk
include tests/reader.mk
include tests/c2c.mk
include tests/sim.mk
include tests/layout.mk
include tests/spe.mk
include tests/srcpatch.mk
include tests/suggest.mk
include tests/ab.mk
include tests/diff.mk
include tests/tui.mk
include tests/realprog.mk
EXTRA_DIST += tests/tools/same_as_base.sh
