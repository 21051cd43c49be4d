#!/bin/sh
# Index a folder of existing recordings (files stay in place), then list what came in.
# usage: aindex-import-folder.sh ~/Recordings
set -eu
aindex import "${1:?usage: $0 FOLDER}"
aindex stats
