import APipeStream
import CSndFile

#if canImport(Glibc)
import Glibc
#endif

/// Writes a 16-bit PCM WAV file through libsndfile, to a temporary name renamed on `close()`,
/// so that a crash never leaves a half-written file under the final name.
public final class SoundFileWriter {
    private var handle: OpaquePointer?
    public let path: String
    private let temporaryPath: String
    public let channels: Int
    public private(set) var frames = 0

    public init(path: String, rate: Int, channels: Int) throws(AudioError) {
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_PCM_16)
        let temporaryPath = path + ".partial"
        guard let handle = sf_open(temporaryPath, Int32(SFM_WRITE), &info) else {
            throw .cannotCreate(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Float input beyond [-1, 1] clips instead of wrapping around.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        self.handle = handle
        self.path = path
        self.temporaryPath = temporaryPath
        self.channels = channels
    }

    deinit {
        if let handle {
            sf_close(handle)
            unlink(temporaryPath)
        }
    }

    /// Appends interleaved float frames.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard let handle, let base = samples.baseAddress else { return }
        let count = samples.count / channels
        let written = sf_writef_float(handle, base, sf_count_t(count))
        guard written == count else { throw .writeFailed(path: path, reason: String(cString: sf_strerror(handle))) }
        frames += count
    }

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
