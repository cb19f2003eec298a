# Benchmarks are run by hand or by CI's bench step, never by `make check`: these machines are
# shared and noisy, so speed is reported as ratios measured side by side, not asserted.
EXTRA_DIST += bench/README.md
EXTRA_DIST += bench/sim_overhead.sh bench/false_sharing_ab.sh
EXTRA_DIST += bench/c2c_report.sh bench/c2c_memory.sh
EXTRA_DIST += bench/reader.sh
EXTRA_DIST += bench/watch_overhead.sh
EXTRA_DIST += bench/symbols.sh
EXTRA_DIST += bench/fields_allocs.sh
EXTRA_DIST += bench/suggest.sh
EXTRA_DIST += bench/tui.sh
EXTRA_DIST += bench/realprog.sh
