// APipeTranscribe: see the module's files.
