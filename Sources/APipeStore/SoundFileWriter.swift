import APipeStream
import CSndFile

#if canImport(Glibc)
import Glibc
#endif

/// Writes a 16-bit PCM WAV file through libsndfile, under a temporary name until `commit()`
/// renames it into place, so a crash never leaves a half-written file under the final name.
final class SoundFileWriter {
    let finalPath: String
    let temporaryPath: String
    let rate: Int
    let channels: Int
    private var file: OpaquePointer?
    /// Frames per channel written so far.
    private(set) var frames = 0
    private var scratch: [Int16] = []

    init(path: String, rate: Int, channels: Int) throws {
        finalPath = path
        temporaryPath = path + ".tmp-\(getpid())"
        self.rate = rate
        self.channels = channels
        try SoundFileWriter.makeParent(of: path)
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let handle = sf_open(temporaryPath, Int32(SFM_WRITE), &info) else {
            throw StoreError.file(path: temporaryPath, reason: String(cString: sf_strerror(nil)))
        }
        file = handle
    }

    deinit {
        if let file {
            sf_close(file)
            unlink(temporaryPath)
        }
    }

    /// Appends interleaved frames of a stream block, converting float samples to 16 bits.
    func write(_ bytes: ArraySlice<UInt8>, encoding: SampleEncoding) throws {
        let samples = bytes.count / encoding.bytesPerSample
        guard samples > 0 else { return }
        scratch.removeAll(keepingCapacity: true)
        bytes.withUnsafeBytes { raw in
            switch encoding {
            case .s16le:
                for i in 0..<samples {
                    scratch.append(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: Int16.self)))
                }
            case .f32le:
                for i in 0..<samples {
                    let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    scratch.append(SampleCodec.clippedInt16(Float(bitPattern: bits)))
                }
            }
        }
        try writeScratch()
    }

    /// Appends `count` frames of silence (a gap in the stream's positions).
    func writeSilence(frames count: Int) throws {
        var left = count
        while left > 0 {
            let chunk = min(left, 1 << 14)
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: repeatElement(0, count: chunk * channels))
            try writeScratch()
            left -= chunk
        }
    }

    private func writeScratch() throws {
        guard let file else { return }
        let written = scratch.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
        guard written == scratch.count else {
            throw StoreError.file(path: temporaryPath, reason: "write failed: \(String(cString: sf_strerror(file)))")
        }
        frames += scratch.count / channels
    }

    /// Closes the file and renames it to its final name; returns its size in bytes.
    @discardableResult
    func commit() throws -> Int64 {
        guard let file else { return Library.fileSize(finalPath) }
        self.file = nil
        // No fsync: the rename is atomic against a crashed process, which is what ingest must
        // survive; after a power loss `aindex check --fix` settles any file the disk lost.
        let status = sf_close(file)
        guard status == 0 else {
            unlink(temporaryPath)
            throw StoreError.file(path: temporaryPath, reason: "close failed: \(String(cString: sf_error_number(status)))")
        }
        guard rename(temporaryPath, finalPath) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw StoreError.file(path: finalPath, reason: "rename failed: \(StoreError.reason(code))")
        }
        return Library.fileSize(finalPath)
    }

    /// Creates the directories above `path`.
    static func makeParent(of path: String) throws {
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
