#!/usr/bin/env bash
# The main job on a built-in example: speech synthesised by espeak-ng is captured, segmented,
# resampled, transcribed offline by the native Whisper engine, and indexed; then the library
# is listed and searched. `make demo` runs this with the tools on PATH.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export APIPE_LIBRARY="$work/library"

espeak-ng -s 150 -w "$work/part1.wav" "Good morning everyone. The budget meeting moves to Thursday at ten."
sox -n -r 22050 -c 1 "$work/pause.wav" trim 0 1.5
espeak-ng -s 150 -w "$work/part2.wav" "Please send your quarterly figures to Maria before then."
sox "$work/part1.wav" "$work/pause.wav" "$work/part2.wav" "$work/note.wav"

echo "== acapture -i note.wav | asegment | aresample -r 16000 | atranscribe | aindex"
acapture -i "$work/note.wav" --title "Demo: budget note" \
  | asegment \
  | aresample -r 16000 -c 1 \
  | atranscribe \
  | aindex

echo
echo "== aindex sessions"
aindex sessions
echo
echo "== aindex show (the demo session)"
session=$(aindex sessions --json | head -1 | sed -E 's/.*"id":"([^"]+)".*/\1/')
aindex show "$session"
echo
echo "== aindex search budget"
aindex search budget
