#!/bin/sh
# Transcribe a recording with OpenAI's API and index it.
#   OPENAI_API_KEY=sk-... ./atranscribe-openai.sh talk.flac
# The key comes from the environment (or --api-key-file FILE), never from the command line.
set -eu
: "${OPENAI_API_KEY:?set OPENAI_API_KEY (or use --api-key-file)}"
input=${1:?usage: $0 AUDIO-FILE}
acapture -i "$input" --preset low \
  | asegment \
  | atranscribe --engine openai --model whisper-1 --language en --jobs 4 \
  | aindex
