#!/bin/sh
# Any external recogniser as the engine: {wav} becomes a temporary 16 kHz mono WAV file;
# the text is the command's standard output. Here whisper.cpp's CLI (no timestamps, no
# progress); without {wav} the WAV goes to the command's standard input instead.
#   ./atranscribe-command.sh talk.flac ggml-base.en.bin
set -eu
input=${1:?usage: $0 AUDIO-FILE MODEL}
model=${2:?usage: $0 AUDIO-FILE MODEL}
acapture -i "$input" \
  | asegment \
  | atranscribe --engine command --exec "whisper-cli -m '$model' -f {wav} -nt -np" --timeout 300 \
  | aindex

# The remote API first, this command when the API is down, and segments left pending when
# both fail (aindex pending | atranscribe | aindex retries them later):
#   atranscribe --engine openai --fallback command --exec "whisper-cli -m '$model' -f {wav} -nt -np" --defer
