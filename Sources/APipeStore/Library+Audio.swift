import APipeAudio
import APipeStream

#if canImport(Glibc)
import Glibc
#endif

/// The library's audio files: 16-bit WAV, written under a temporary name and renamed into
/// place before the rows that name them commit.
extension Library {
    /// Opens a WAV writer at `path`, creating the directories above it.
    static func makeWriter(path: String, format: AudioFormat) throws -> SoundFileWriter {
        try makeParent(of: path)
        return try SoundFileWriter(path: path, rate: format.rate, channels: format.channels)
    }

    /// Closes `writer`, renames its file into place and returns the file's size in bytes.
    /// No fsync: the rename is atomic against a killed process, which is what ingest must
    /// survive; after a power loss `aindex check --fix` settles any file the disk lost.
    static func commit(_ writer: SoundFileWriter) throws -> Int64 {
        try writer.close()
        return fileSize(writer.path)
    }

    /// Creates the directories above `path`.
    private static func makeParent(of path: String) throws {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var prefix = ""
        var built: [String] = []
        while let first = components.first {
            components.removeFirst()
            built.append(String(first))
            prefix = built.joined(separator: "/")
            if prefix.isEmpty { continue }
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw StoreError.file(path: prefix, reason: "cannot create directory: \(StoreError.reason(errno))")
            }
        }
    }
}
