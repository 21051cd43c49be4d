// APipeCapture: see the module's files.
