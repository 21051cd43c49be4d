import APipeStream
import Foundation

/// Writes one session to a stream: format record, session.start, audio with true positions,
/// overrun events, session.end.
public final class SessionRecorder {
    private let writer: StreamWriter
    public let id: String
    public let format: AudioFormat
    /// Frames written so far, which is also the next frame's position.
    public private(set) var frames = 0
    private var xruns = 0
    private var encoded: [UInt8] = []

    /// Starts the session: writes the format record and the session.start event.
    public init(writer: StreamWriter, format: AudioFormat, title: String, preset: QualityPreset?, source: String, device: String?, notes: String? = nil) throws {
        self.writer = writer
        self.format = format
        self.id = UUID().uuidString.lowercased()
        try writer.write(format: format)
        try writer.write(event: SessionStart(
            session: id, title: title, created: Self.timestamp(Date()), preset: preset?.rawValue,
            rate: format.rate, bits: format.encoding.bits, channels: format.channels, format: format.encoding.description,
            source: source, device: device, host: Host.name, os: Host.operatingSystem, appVersion: APipeVersion.current,
            notes: notes))
    }

    /// Appends interleaved float frames.
    public func append(_ samples: UnsafeBufferPointer<Float>) throws {
        guard !samples.isEmpty else { return }
        try writer.writeAudio(position: frames, samples: samples, scratch: &encoded)
        frames += samples.count / format.channels
    }

    /// Appends frames already encoded in the session's format.
    public func append(encoded bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try writer.writeAudio(position: frames, bytes: bytes)
        frames += bytes.count / format.bytesPerFrame
    }

    /// Records an overrun at the current position.
    public func overrun(lostFrames: Int?) throws {
        xruns += 1
        try writer.write(event: Xrun(session: id, t: format.seconds(frames), count: xruns, lostFrames: lostFrames))
    }

    /// Ends the session; the stream itself stays open for another session.
    public func end(interrupted: Bool, reason: String?) throws {
        try writer.write(event: SessionEnd(
            session: id, duration: format.seconds(frames), frames: frames, interrupted: interrupted, reason: reason,
            xruns: xruns > 0 ? xruns : nil))
        try writer.flush()
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// Facts about this machine for session metadata.
enum Host {
    static var name: String { ProcessInfo.processInfo.hostName }
    static var operatingSystem: String {
        var info = utsname()
        uname(&info)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(info.sysname)) \(text(info.release)) \(text(info.machine))"
    }
}
