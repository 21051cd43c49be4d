#!/bin/sh
# Transcribe again every segment that is pending (e.g. recorded offline) or failed.
set -eu
aindex pending --dry-run
aindex pending | atranscribe | aindex
aindex stats
