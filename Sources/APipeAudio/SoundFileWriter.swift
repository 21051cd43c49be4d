import APipeStream
import CSndFile

#if canImport(Glibc)
import Glibc
#endif

/// Writes a 16-bit PCM WAV file through libsndfile, to a temporary name renamed on `close()`,
/// so that a crash never leaves a half-written file under the final name. The temporary name
/// carries `temporaryMarker` and the process id, so writers in two processes never collide and
/// leftovers of a killed process are easy to find. This is for files a tool names and owns
/// (library audio, `acat -o` session files); a path that exists as anything but a regular file
/// (a symlink, a FIFO, a device) is refused rather than replaced.
public final class SoundFileWriter {
    private var handle: OpaquePointer?
    public let path: String
    private let temporaryPath: String
    public let rate: Int
    public let channels: Int
    public static let temporaryMarker = ".partial-"
    public private(set) var frames = 0
    private var encoded: [UInt8] = []
    private var samples: [Float] = []

    public init(path: String, rate: Int, channels: Int) throws(AudioError) {
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_PCM_16)
        var existing = stat()
        if lstat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
            throw .cannotCreate(path: path, reason: "it exists and is not a regular file; apipe will not replace it")
        }
        let temporaryPath = path + Self.temporaryMarker + String(getpid())
        guard let handle = sf_open(temporaryPath, Int32(SFM_WRITE), &info) else {
            throw .cannotCreate(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.handle = handle
        self.path = path
        self.temporaryPath = temporaryPath
        self.rate = rate
        self.channels = channels
    }

    deinit {
        if let handle {
            sf_close(handle)
            unlink(temporaryPath)
        }
    }

    /// Appends interleaved float frames, quantised exactly as the stream's s16 codec does
    /// (x 32768, ties to even, clipped), so s16 audio round-trips bit for bit.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard writeQuantised(samples) else { throw .writeFailed(path: path, reason: failure) }
    }

    /// Appends interleaved frames in a stream's wire encoding.
    public func write(encoded bytes: UnsafeRawBufferPointer, encoding: SampleEncoding) throws(AudioError) {
        switch encoding {
        case .s16le:
            let complete = bytes.withMemoryRebound(to: Int16.self) { writeFrames($0) }
            guard complete else { throw .writeFailed(path: path, reason: failure) }
        case .f32le:
            samples.removeAll(keepingCapacity: true)
            SampleCodec.decode(bytes, encoding: .f32le, appendingTo: &samples)
            let complete = samples.withUnsafeBufferPointer { writeQuantised($0) }
            guard complete else { throw .writeFailed(path: path, reason: failure) }
        }
    }

    /// Appends `count` frames of silence (a gap in a stream's positions).
    public func writeSilence(frames count: Int) throws(AudioError) {
        let zeros = [Int16](repeating: 0, count: min(count, 1 << 14) * channels)
        var left = count
        while left > 0 {
            let chunk = min(left, 1 << 14)
            let complete = zeros.withUnsafeBufferPointer { writeFrames(UnsafeBufferPointer(rebasing: $0[0..<chunk * channels])) }
            guard complete else { throw .writeFailed(path: path, reason: failure) }
            left -= chunk
        }
    }

    /// Appends interleaved s16 frames as they are.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioError) {
        guard writeFrames(samples) else { throw .writeFailed(path: path, reason: failure) }
    }

    private func writeQuantised(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        encoded.removeAll(keepingCapacity: true)
        SampleCodec.encode(samples, encoding: .s16le, appendingTo: &encoded)
        return encoded.withUnsafeBytes { raw in raw.withMemoryRebound(to: Int16.self) { writeFrames($0) } }
    }

    private func writeFrames(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        guard let handle, let base = samples.baseAddress else { return true }
        let count = samples.count / channels
        let written = sf_writef_short(handle, base, sf_count_t(count))
        frames += Int(max(0, written))
        return written == count
    }

    private var failure: String { handle.map { String(cString: sf_strerror($0)) } ?? "file already closed" }

    /// Finishes the file and moves it to its final name.
    public func close() throws(AudioError) {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        guard status == 0 else {
            unlink(temporaryPath)
            throw .writeFailed(path: path, reason: String(cString: sf_error_number(status)))
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw .writeFailed(path: path, reason: reason)
        }
    }

    /// Abandons the file: nothing is left behind.
    public func discard() {
        guard let handle else { return }
        self.handle = nil
        sf_close(handle)
        unlink(temporaryPath)
    }
}
