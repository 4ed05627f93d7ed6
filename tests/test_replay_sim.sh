#!/bin/sh
# Every built-in platform's snapshot replayed directly (replay:FILE.tar.gz against sim:P): tests/replay_builtin.sh.
PREFIX=
. "$(dirname "$0")/replay_builtin.sh"
