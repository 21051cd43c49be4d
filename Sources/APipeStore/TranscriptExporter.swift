import Foundation

/// Writes a session's transcript as plain text, JSON, SRT, WebVTT or an Audacity label track.
public enum TranscriptExporter {
    public enum Format: String, CaseIterable, Sendable {
        case txt, json, srt, vtt, audacity
    }

    public static func export(_ detail: SessionDetail, as format: Format) -> String {
        let cues = detail.segments.compactMap { segment -> (Double, Double, String)? in
            guard let text = segment.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return (segment.start, segment.end, text)
        }
        switch format {
        case .txt:
            return cues.map { PrintableText.escaped($0.2) + "\n" }.joined()
        case .json:
            var session = JSONLine.session(detail.summary)
            session["words_per_minute"] = (detail.wordsPerMinute * 10).rounded() / 10
            session["sample_rate"] = detail.sampleRate
            session["channels"] = detail.channels
            session["audio"] = detail.audio
            session["notes"] = detail.notes
            session["transcript"] = detail.transcript
            session["segments"] = detail.segments.map { JSONLine.segment($0).compactMapValues { $0 } }
            return JSONLine.encode(session) + "\n"
        case .srt:
            return cues.enumerated().map { number, cue in
                "\(number + 1)\n\(TimeText.cue(cue.0, separator: ",")) --> \(TimeText.cue(cue.1, separator: ","))\n\(cue.2)\n"
            }.joined(separator: "\n")
        case .vtt:
            return "WEBVTT\n" + cues.map { cue in
                "\n\(TimeText.cue(cue.0, separator: ".")) --> \(TimeText.cue(cue.1, separator: "."))\n\(cue.2)\n"
            }.joined()
        case .audacity:
            return cues.map { String(format: "%.6f\t%.6f\t", $0.0, $0.1) + $0.2.replacingOccurrences(of: "\t", with: " ") + "\n" }.joined()
        }
    }
}
