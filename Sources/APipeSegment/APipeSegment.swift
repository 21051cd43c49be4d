// APipeSegment: see the module's files.
