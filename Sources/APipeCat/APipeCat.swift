// APipeCat: see the module's files.
