// APipeWhisper: see the module's files.
