import APipeStream
import Foundation

/// Streams for aindex tests whose content a hostile or broken upstream chose: any session id,
/// title, text, rate and audio positions, written with the real stream writer.
enum AIndexStreams {
    /// A session `id` titled `title` with a one-second block of audio at each of `positions`
    /// (frames at `rate`), one segment around the first block transcribed as `text`, and a
    /// session.end.
    static func session(id: String, title: String = "Hostile", rate: Int = 16000, positions: [Int] = [0],
                        text: String = "hello budget") throws -> [UInt8] {
        let writer = StreamWriter()
        try writer.write(format: try AudioFormat(encoding: .s16le, rate: rate, channels: 1))
        try writer.write(event: SessionStart(
            session: id, title: title, created: "2026-11-20T09:00:00Z", preset: nil, rate: rate, bits: 16, channels: 1,
            format: "s16le", source: "test", device: nil, host: "h", os: "linux", appVersion: "0"))
        let block = [Int16](repeating: 1000, count: rate)
        for (n, position) in positions.enumerated() {
            if n == 0 { try writer.write(event: SegmentStart(session: id, index: 0, start: 0)) }
            try block.withUnsafeBytes { try writer.writeAudio(position: position, bytes: $0) }
            if n == 0 {
                try writer.write(event: SegmentEnd(session: id, index: 0, start: 0, end: 1, probability: 0.9, reason: "silence"))
                try writer.write(event: Transcription(
                    session: id, index: 0, start: 0, end: 1, text: text, language: "en", confidence: 0.9,
                    method: "local-whisper", provider: "apipe", model: "tiny.en", processingTime: 0.1, phrases: nil, retries: 0))
            }
        }
        try writer.write(event: SessionEnd(session: id, duration: Double(positions.count), frames: positions.count * rate,
                                           interrupted: false))
        try writer.finish()
        return writer.collected
    }
}
