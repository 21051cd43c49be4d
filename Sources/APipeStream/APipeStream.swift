// APipeStream: see the module's files.
