#!/bin/sh
# Every built-in platform's snapshot replayed through the perf backend (perf+replay:DIR against perf+sim:P): tests/replay_builtin.sh.
PREFIX=perf+
. "$(dirname "$0")/replay_builtin.sh"
