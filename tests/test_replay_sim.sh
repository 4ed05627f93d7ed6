#!/bin/sh
# Every built-in platform's snapshot replayed directly (replay:DIR against sim:P): tests/replay_builtin.sh.
PREFIX=
. "$(dirname "$0")/replay_builtin.sh"
