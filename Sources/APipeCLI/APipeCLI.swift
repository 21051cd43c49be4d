// APipeCLI: see the module's files.
