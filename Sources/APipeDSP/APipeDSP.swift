// APipeDSP: see the module's files.
