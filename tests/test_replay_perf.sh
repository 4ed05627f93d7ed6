#!/bin/sh
# Every built-in platform's snapshot replayed through the perf backend (perf+replay:FILE.tar.gz against perf+sim:P): tests/replay_builtin.sh.
PREFIX=perf+
. "$(dirname "$0")/replay_builtin.sh"
