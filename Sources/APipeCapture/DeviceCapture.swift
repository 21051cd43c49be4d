import APipeAudio
import APipeStream
import Foundation

/// Records from an ALSA device until a stop signal or the duration.
public struct DeviceCapture {
    public var device: String
    public var preset: QualityPreset
    public var title: String?
    public var notes: String?
    public var duration: Double?

    public init(device: String, preset: QualityPreset) {
        self.device = device
        self.preset = preset
    }

    /// Records one session. A stop signal ends it as interrupted (exit 0: nothing is lost).
    public func run(writer: StreamWriter) throws {
        let capture = try ALSACapture(device: device, rate: preset.rate, channels: 1)
        let format = try AudioFormat(encoding: .s16le, rate: capture.rate, channels: 1)
        let recorder = try SessionRecorder(
            writer: writer, format: format, title: title ?? Self.defaultTitle(), preset: preset,
            source: "alsa:\(device)", device: device, notes: notes)
        let limit = duration.map { Int(($0 * Double(capture.rate)).rounded()) } ?? Int.max
        var buffer: [Int16] = []
        var overrun = false
        while recorder.frames < limit, !StopSignal.requested {
            let got = try capture.read(frames: min(capture.periodFrames, limit - recorder.frames), into: &buffer, overrun: &overrun)
            if overrun { try recorder.overrun(lostFrames: nil) }
            guard got > 0 else { continue }
            try buffer.withUnsafeBytes { raw in
                try recorder.append(encoded: UnsafeRawBufferPointer(rebasing: raw[0..<got * 2]))
            }
            try writer.flush()
        }
        try recorder.end(interrupted: StopSignal.requested, reason: StopSignal.requested ? "signal" : nil)
    }

    static func defaultTitle() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return "Recording \(formatter.string(from: Date()))"
    }
}
