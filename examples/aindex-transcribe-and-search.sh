#!/bin/sh
# Record a file into the library, transcribe it, then search it and export subtitles.
# usage: aindex-transcribe-and-search.sh talk.flac "budget meeting"
set -eu
file=${1:?usage: $0 AUDIO-FILE [QUERY]}
query=${2:-meeting}

acapture -i "$file" --preset low | asegment | atranscribe | aindex
aindex sessions --limit 5
aindex search "$query"
session=$(aindex sessions --json --limit 1 | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
aindex export "$session" --format srt > "${file%.*}.srt"
echo "subtitles: ${file%.*}.srt"
