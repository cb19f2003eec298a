# The perf.data writer, mkperf and lineup record (role: writer).
