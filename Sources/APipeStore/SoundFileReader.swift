import CSndFile
import Foundation

/// Reads any file libsndfile knows as interleaved 16-bit frames, and its tags.
final class SoundFileReader {
    let path: String
    let rate: Int
    let channels: Int
    /// Frames per channel.
    let frames: Int
    /// libsndfile's major format name (e.g. `WAV`, `FLAC`) and subtype (e.g. `PCM_16`).
    let formatName: String
    let bitDepth: Int
    private let file: OpaquePointer

    init(path: String) throws {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw StoreError.file(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.path = path
        file = handle
        rate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = Int(info.frames)
        let major = info.format & Int32(SF_FORMAT_TYPEMASK)
        let sub = info.format & Int32(SF_FORMAT_SUBMASK)
        formatName = SoundFileReader.name(major) ?? "unknown"
        bitDepth = switch sub {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8): 8
        case Int32(SF_FORMAT_PCM_24): 24
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): 32
        case Int32(SF_FORMAT_DOUBLE): 64
        default: 16
        }
    }

    deinit { sf_close(file) }

    var duration: Double { rate > 0 ? Double(frames) / Double(rate) : 0 }

    /// A tag (`SF_STR_TITLE`, ...) or nil when absent or empty.
    func tag(_ kind: Int32) -> String? {
        guard let text = sf_get_string(file, kind) else { return nil }
        let value = String(cString: text).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// Reads up to `buffer.count / channels` frames; returns frames read, 0 at the end.
    func read(into buffer: inout [Int16]) -> Int {
        let count = buffer.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, sf_count_t($0.count / channels)) }
        return Int(count)
    }

    private static func name(_ format: Int32) -> String? {
        var info = SF_FORMAT_INFO()
        info.format = format
        guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let extension_ = info.extension else { return nil }
        return String(cString: extension_).uppercased()
    }
}
