#!/bin/sh
# Weekly upkeep: forget sessions older than 90 days, then repair whatever a crash left behind.
# usage: aindex-maintenance.sh [--dry-run]
set -eu
dry=${1:-}
aindex prune --older-than 90d $dry
if [ -n "$dry" ]; then aindex check || true; else aindex check --fix; fi
aindex stats
