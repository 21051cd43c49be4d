#!/bin/sh
# Transcribe with a local OpenAI-compatible server (whisper.cpp's whisper-server,
# faster-whisper-server, LocalAI, ...): no key needed on 127.0.0.1.
#   whisper-server -m ggml-base.en.bin --port 8080 --inference-path /v1/audio/transcriptions &
#   ./atranscribe-local-server.sh talk.flac
set -eu
input=${1:?usage: $0 AUDIO-FILE}
url=${APIPE_WHISPER_URL:-http://127.0.0.1:8080}
acapture -i "$input" \
  | asegment \
  | atranscribe --engine openai --url "$url" --model base.en --progress json \
  | acat --text
