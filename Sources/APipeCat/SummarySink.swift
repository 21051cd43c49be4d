import APipeStream

/// `acat` with no option: what is in the stream, for eyes. One block per session: title, id,
/// source, format, duration, segments and their transcripts. Control characters in the stream's
/// text are shown as escapes, never sent to the terminal.
public struct SummarySink: CatSink {
    private let out: BufferedOutput
    private var format: AudioFormat?
    private var session: SessionStart?
    private var frames = 0
    private var segments = 0
    private var sessionsSeen = 0
    private var loose = 0

    public init(out: BufferedOutput) {
        self.out = out
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat):
            format = newFormat
        case .audio(let block):
            frames = max(frames, block.position + block.frames)
            if session == nil { loose += block.frames }
        case .event(let event):
            try describe(event)
        }
    }

    private mutating func describe(_ event: Event) throws {
        if let start = try event.decode(SessionStart.self) {
            session = start
            sessionsSeen += 1
            frames = 0
            segments = 0
            try say("session \(start.session.prefix(8))  \"\(start.title)\"  \(start.created)")
            try say("  source: \(start.source)   format: \(start.format) \(start.rate) Hz \(start.channels) ch\(start.preset.map { "   preset: \($0)" } ?? "")")
        } else if let end = try event.decode(SessionEnd.self) {
            try say("  duration: \(Self.clock(end.duration))   segments: \(segments)\(end.interrupted ? "   (interrupted\(end.reason.map { ": \($0)" } ?? ""))" : "")\(end.xruns.map { "   overruns: \($0)" } ?? "")")
            session = nil
        } else if let segment = try event.decode(SegmentEnd.self) {
            segments += 1
            try say("  segment \(segment.index)  \(Self.clock(segment.start)) - \(Self.clock(segment.end))  (\(segment.reason))")
        } else if let text = try event.decode(Transcription.self) {
            try say("    [\(Self.clock(text.start))] \(text.text)")
        } else if let failed = try event.decode(TranscriptionFailed.self) {
            try say("    [\(Self.clock(failed.t))] transcription \(failed.pending ? "pending" : "failed"): \(failed.error)")
        } else if let broken = try event.decode(StreamInterrupted.self) {
            try say("  stream interrupted in \(broken.stage): \(broken.reason)")
        }
    }

    public mutating func close(interrupted: Bool) throws {
        if session != nil, let format {
            try say("  duration: \(Self.clock(format.seconds(frames)))+   segments: \(segments)   (no session end: \(interrupted ? "input interrupted" : "unfinished"))")
        }
        if sessionsSeen == 0 {
            let audio = format.map { " of \($0)" } ?? ""
            try say("no sessions\(loose > 0 ? "; \(Self.clock(format?.seconds(loose) ?? 0)) of audio\(audio) outside any session" : "")")
        }
        try out.flush()
    }

    /// One line of the summary; text from the stream in it is made visible (`VisibleText`).
    private func say(_ line: String) throws {
        try out.line(VisibleText.escaped(line))
    }

    /// `MM:SS.mmm`, or `H:MM:SS.mmm` past an hour.
    static func clock(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let h = millis / 3_600_000
        let m = millis / 60_000 % 60
        let s = millis / 1000 % 60
        let ms = millis % 1000
        let tail = "\(pad(m)):\(pad(s)).\(String(ms + 1000).dropFirst())"
        return h > 0 ? "\(h):\(tail)" : tail
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
