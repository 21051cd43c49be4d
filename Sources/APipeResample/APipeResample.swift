// APipeResample: see the module's files.
