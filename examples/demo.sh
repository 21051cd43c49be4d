#!/usr/bin/env bash
# The main job on a built-in example: speech synthesised by espeak-ng goes through the
# pipeline, and what came out is shown. `make demo` runs this with the tools on PATH.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

espeak-ng -w "$work/note.wav" "Good morning everyone. The budget meeting moves to Thursday at ten. \
Please send your quarterly figures to Maria before then."

echo "== acapture -i note.wav | aresample -r 16000 -c 1 | acat"
acapture -i "$work/note.wav" --title "Demo note" | aresample -r 16000 -c 1 | acat

echo
echo "== the same stream as JSON lines (acat --events)"
acapture -i "$work/note.wav" --title "Demo note" | aresample -r 16000 -c 1 | acat --events
