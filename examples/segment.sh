#!/bin/sh
# Speech segments of a synthesised talk: espeak-ng speaks two sentences with a pause between,
# asegment marks them, acat shows the events; the labels open in Audacity beside the WAV.
set -eu
dir=$(mktemp -d)
espeak-ng -w "$dir/a.wav" "Good morning everyone, thank you for coming."
espeak-ng -w "$dir/b.wav" "Let us start with the budget review."
sox -n -r 22050 -c 1 "$dir/gap.wav" trim 0 1.5
sox "$dir/gap.wav" "$dir/a.wav" "$dir/gap.wav" "$dir/b.wav" "$dir/gap.wav" "$dir/talk.wav"
acapture -i "$dir/talk.wav" | asegment --labels "$dir/talk.txt" | acat --events
cat "$dir/talk.txt"
