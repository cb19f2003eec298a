EXTRA_DIST += tests/lib.sh
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)

TESTS += tests/e2e/cli.sh tests/e2e/demo.sh
dist_check_SCRIPTS += tests/e2e/cli.sh tests/e2e/demo.sh
include tests/fields.mk
include tests/writer.mk
include tests/symbols.mk
include tests/watch.mk
include tests/reader.mk
include tests/c2c.mk
include tests/speed.mk
include tests/sim.mk
include tests/layout.mk
