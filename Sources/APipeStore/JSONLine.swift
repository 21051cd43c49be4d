import Foundation

/// One JSON object on one line, keys sorted, for `--json` output.
public enum JSONLine {
    public static func encode(_ object: [String: Any?]) -> String {
        let clean = object.compactMapValues { $0 }
        guard let data = try? JSONSerialization.data(withJSONObject: clean, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Rounds to milliseconds so JSON numbers stay short and stable.
    static func ms(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    static func session(_ s: SessionSummary) -> [String: Any?] {
        [
            "id": s.id, "title": s.title, "created": TimeText.iso(s.created), "duration": ms(s.duration),
            "segments": s.segments, "transcribed": s.transcribed, "failed": s.failed, "pending": s.pending,
            "words": s.words, "completed": s.completed, "interrupted": s.interrupted,
        ]
    }

    static func segment(_ g: SegmentDetail) -> [String: Any?] {
        [
            "index": g.index, "start": ms(g.start), "end": ms(g.end), "status": g.status, "retries": g.retries,
            "error": g.error, "audio": g.audio, "text": g.text, "language": g.language, "confidence": g.confidence,
            "model": g.model,
        ]
    }
}
