#!/usr/bin/env bash
# Convert every recording in a folder to 16 kHz mono 16-bit WAV (what speech models want).
# Usage: examples/convert-folder.sh IN_DIR OUT_DIR
set -euo pipefail
in=${1:?usage: convert-folder.sh IN_DIR OUT_DIR}
out=${2:?usage: convert-folder.sh IN_DIR OUT_DIR}
mkdir -p "$out"
find "$in" -maxdepth 1 -type f \( -iname '*.wav' -o -iname '*.flac' -o -iname '*.ogg' -o -iname '*.mp3' -o -iname '*.aiff' \) -print0 |
  while IFS= read -r -d '' f; do
    name=$(basename "${f%.*}")
    acapture -i "$f" | aresample -r 16000 -c 1 --format s16 | acat --wav > "$out/$name.wav"
    echo "$out/$name.wav"
  done
