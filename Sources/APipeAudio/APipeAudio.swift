// APipeAudio: see the module's files.
