// APipeStore: see the module's files.
