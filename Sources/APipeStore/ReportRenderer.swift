import Foundation

/// Renders query results as tables for people or as JSON lines for programs. Text from the
/// library is printed through `PrintableText`, so a title never breaks a line or drives a terminal.
public struct ReportRenderer {
    public var json: Bool
    public var zone: TimeZone
    /// Bold matched terms with ANSI escapes (a terminal); otherwise they are wrapped in `[` `]`.
    public var ansi: Bool

    public init(json: Bool, zone: TimeZone = .current, ansi: Bool = false) {
        self.json = json
        self.zone = zone
        self.ansi = ansi
    }

    /// `aindex sessions`: grouped by day, newest first.
    public func sessions(_ list: [SessionSummary], page: Int) -> String {
        if json { return list.map { JSONLine.encode(JSONLine.session($0)) + "\n" }.joined() }
        guard !list.isEmpty else { return page > 1 ? "no sessions on page \(page)\n" : "no sessions\n" }
        var lines: [String] = []
        var day = ""
        var table: TextTable?
        func flush() {
            if let table { lines += table.render(indent: "  ") }
        }
        for session in list {
            let thisDay = TimeText.day(session.created, in: zone)
            if thisDay != day {
                flush()
                if !lines.isEmpty { lines.append("") }
                lines.append(thisDay)
                day = thisDay
                table = TextTable([("ID", .left), ("TIME", .left), ("DURATION", .right), ("SEGS", .right),
                                   ("TRANSCRIBED", .right), ("TITLE", .left)])
            }
            var title = session.title.isEmpty ? "(untitled)" : PrintableText.escaped(session.title)
            if session.interrupted { title += " [interrupted]" }
            table?.add([String(session.id.prefix(8)), TimeText.clock(session.created, in: zone), TimeText.duration(session.duration),
                        String(session.segments), "\(session.transcribed)/\(session.segments) \(session.progress)%", title])
        }
        flush()
        return lines.joined(separator: "\n") + "\n"
    }

    /// `aindex show`: the session, its segments, its transcript.
    public func show(_ detail: SessionDetail) -> String {
        let s = detail.summary
        if json {
            var object = JSONLine.session(s)
            object["words_per_minute"] = (detail.wordsPerMinute * 10).rounded() / 10
            object["sample_rate"] = detail.sampleRate
            object["channels"] = detail.channels
            object["audio"] = detail.audio
            object["notes"] = detail.notes
            object["interruption"] = detail.interruption
            var out = JSONLine.encode(object) + "\n"
            for segment in detail.segments {
                var line = JSONLine.segment(segment)
                line["session"] = s.id
                out += JSONLine.encode(line) + "\n"
            }
            return out
        }
        let shown = { (text: String) in PrintableText.escaped(text) }
        var lines = [
            "session   \(s.id)",
            "title     \(s.title.isEmpty ? "(untitled)" : shown(s.title))",
            "created   \(TimeText.day(s.created, in: zone)) \(TimeText.clock(s.created, in: zone))",
            "duration  \(TimeText.duration(s.duration))",
            "audio     \(detail.audio.map(shown) ?? "(none)") (\(detail.sampleRate) Hz, \(detail.channels) ch, \(detail.audioSize) bytes)",
            "segments  \(s.segments): \(s.transcribed) transcribed, \(s.failed) failed, \(s.pending) pending",
            "words     \(s.words) (\(String(format: "%.1f", detail.wordsPerMinute)) per minute)",
        ]
        if s.interrupted { lines.append("status    interrupted: \(detail.interruption.map(shown) ?? "unknown reason")") }
        if let notes = detail.notes, !notes.isEmpty { lines.append("notes     \(shown(notes))") }
        if !detail.segments.isEmpty {
            lines.append("")
            var table = TextTable([("#", .right), ("START", .right), ("END", .right), ("STATUS", .left), ("TEXT", .left)])
            for g in detail.segments {
                let text = g.text ?? (g.error.map { "(\($0))" } ?? "")
                table.add([String(g.index), TimeText.cue(g.start, separator: "."), TimeText.cue(g.end, separator: "."), g.status, shown(text)])
            }
            lines += table.render()
        }
        let transcript = detail.transcriptLines
        if !transcript.isEmpty {
            lines += ["", "transcript:"] + transcript.map(shown)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `aindex search`: one hit per line, best first.
    public func search(_ hits: [SearchHit]) -> String {
        if json {
            return hits.map { hit in
                JSONLine.encode([
                    "session": hit.session, "title": hit.title, "index": hit.index, "start": hit.start.map(JSONLine.ms),
                    "end": hit.end.map(JSONLine.ms), "snippet": highlight(hit.snippet, open: "[", close: "]"),
                    "score": (hit.score * 1000).rounded() / 1000,
                ]) + "\n"
            }.joined()
        }
        guard !hits.isEmpty else { return "no matches\n" }
        var table = TextTable([("SESSION", .left), ("SEG", .right), ("TIME", .right), ("MATCH", .left)])
        for hit in hits {
            let snippet = PrintableText.escaped(hit.snippet, keeping: ReportRenderer.highlightMarkers)
            let match = ansi ? highlight(snippet, open: "\u{1B}[1m", close: "\u{1B}[0m") : highlight(snippet, open: "[", close: "]")
            let place = hit.index.map(String.init) ?? "-"
            let time = hit.start.map { TimeText.cue($0, separator: ".") } ?? "title"
            let title = hit.title.isEmpty ? "" : " (\(PrintableText.escaped(hit.title)))"
            table.add([String(hit.session.prefix(8)) + title, place, time, match])
        }
        return table.render().joined(separator: "\n") + "\n"
    }

    /// `aindex stats`.
    public func stats(_ stats: LibraryStats) -> String {
        if json {
            var object: [String: Any?] = [
                "sessions": stats.sessions, "interrupted_sessions": stats.interruptedSessions, "segments": stats.segments,
                "transcriptions": stats.transcriptions, "words": stats.words, "audio_seconds": JSONLine.ms(stats.audioSeconds),
                "session_audio_bytes": stats.sessionAudioBytes, "segment_audio_bytes": stats.segmentAudioBytes,
                "database_bytes": stats.databaseBytes, "disk_bytes": stats.diskBytes,
            ]
            for status in ["pending", "processing", "completed", "failed"] { object[status] = stats.statuses[status] ?? 0 }
            return JSONLine.encode(object) + "\n"
        }
        var lines = [
            "sessions        \(stats.sessions) (\(stats.interruptedSessions) interrupted)",
            "segments        \(stats.segments)",
        ]
        for status in ["completed", "pending", "processing", "failed"] {
            lines.append("  \(status.padding(toLength: 14, withPad: " ", startingAt: 0))\(stats.statuses[status] ?? 0)")
        }
        lines += [
            "transcriptions  \(stats.transcriptions) (\(stats.words) words)",
            "audio           \(TimeText.duration(stats.audioSeconds))",
            "disk            \(ReportRenderer.bytes(stats.diskBytes)) (audio \(ReportRenderer.bytes(stats.sessionAudioBytes + stats.segmentAudioBytes)), database \(ReportRenderer.bytes(stats.databaseBytes)))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    func highlight(_ snippet: String, open: String, close: String) -> String {
        snippet.replacingOccurrences(of: Searcher.highlightOpen, with: open)
            .replacingOccurrences(of: Searcher.highlightClose, with: close)
    }

    /// The scalars `Searcher` marks matches with, kept when a snippet is escaped.
    static let highlightMarkers = Set((Searcher.highlightOpen + Searcher.highlightClose).unicodeScalars)

    /// `1.2 MB`-style sizes (powers of 1000).
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
