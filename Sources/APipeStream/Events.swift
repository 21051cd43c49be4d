// The events apipe's own stages emit. Every time (`t`, `start`, `end`) is in seconds from the
// session's start; `session` is the session's UUID in lowercase text. Fields are snake_case on
// the wire. man/apipe-stream.5 documents each one.

/// Opens a session: what was recorded, how, and where.
public struct SessionStart: StreamEvent, Equatable {
    public static let type = "session.start"
    public var session: String
    public var title: String
    /// ISO-8601 wall-clock time the recording started.
    public var created: String
    public var t: Double = 0
    /// Quality preset name (low, medium, high) when one was chosen.
    public var preset: String?
    public var rate: Int
    public var bits: Int
    public var channels: Int
    /// Sample encoding on the wire (s16le, f32le).
    public var format: String
    /// Where the audio came from: a file path, `stdin`, or `alsa:DEVICE`.
    public var source: String
    public var device: String?
    public var host: String
    public var os: String
    public var appVersion: String
    public var notes: String?

    public init(
        session: String, title: String, created: String, preset: String?, rate: Int, bits: Int,
        channels: Int, format: String, source: String, device: String?, host: String, os: String,
        appVersion: String, notes: String? = nil
    ) {
        self.session = session
        self.title = title
        self.created = created
        self.preset = preset
        self.rate = rate
        self.bits = bits
        self.channels = channels
        self.format = format
        self.source = source
        self.device = device
        self.host = host
        self.os = os
        self.appVersion = appVersion
        self.notes = notes
    }
}

/// Closes a session. `interrupted` is true when recording stopped on a signal or an error.
public struct SessionEnd: StreamEvent, Equatable {
    public static let type = "session.end"
    public var session: String
    public var t: Double
    public var duration: Double
    public var frames: Int
    public var interrupted: Bool
    public var reason: String?
    public var xruns: Int?

    public init(session: String, duration: Double, frames: Int, interrupted: Bool, reason: String? = nil, xruns: Int? = nil) {
        self.session = session
        self.t = duration
        self.duration = duration
        self.frames = frames
        self.interrupted = interrupted
        self.reason = reason
        self.xruns = xruns
    }
}

/// A capture overrun: audio was lost at `t`; `count` numbers the overruns of the session.
public struct Xrun: StreamEvent, Equatable {
    public static let type = "xrun"
    public var session: String
    public var t: Double
    public var count: Int
    public var lostFrames: Int?

    public init(session: String, t: Double, count: Int, lostFrames: Int?) {
        self.session = session
        self.t = t
        self.count = count
        self.lostFrames = lostFrames
    }
}

/// Marks where a segment (a stretch of speech, or a fixed-length piece) begins.
public struct SegmentStart: StreamEvent, Equatable {
    public static let type = "segment.start"
    public var session: String
    /// 0-based index of the segment in its session.
    public var index: Int
    public var t: Double
    public var start: Double

    public init(session: String, index: Int, start: Double) {
        self.session = session
        self.index = index
        self.t = start
        self.start = start
    }
}

/// Marks where a segment ends and why.
public struct SegmentEnd: StreamEvent, Equatable {
    public static let type = "segment.end"
    public var session: String
    public var index: Int
    public var t: Double
    public var start: Double
    public var end: Double
    /// Mean speech probability over the segment (absent in fixed-length mode).
    public var probability: Double?
    /// `silence`, `max-length`, `fixed` or `end-of-stream`.
    public var reason: String

    public init(session: String, index: Int, start: Double, end: Double, probability: Double?, reason: String) {
        self.session = session
        self.index = index
        self.t = end
        self.start = start
        self.end = end
        self.probability = probability
        self.reason = reason
    }
}

/// A timed piece of a transcription (a phrase or a word).
public struct TranscriptPhrase: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var text: String
    public var confidence: Double?

    public init(start: Double, end: Double, text: String, confidence: Double? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.confidence = confidence
    }
}

/// The text of one segment, emitted after the segment's end.
public struct Transcription: StreamEvent, Equatable {
    public static let type = "transcription"
    public var session: String
    public var index: Int
    public var t: Double
    public var start: Double
    public var end: Double
    public var text: String
    public var language: String?
    public var confidence: Double?
    /// `local-whisper`, `remote-api`, `external-command`.
    public var method: String
    public var provider: String
    public var model: String?
    /// Seconds the engine took.
    public var processingTime: Double
    public var words: Int
    public var characters: Int
    public var phrases: [TranscriptPhrase]?
    public var retries: Int
    /// True when the text was cut to keep the event under the stream's size limit.
    public var truncated: Bool?

    public init(
        session: String, index: Int, start: Double, end: Double, text: String, language: String?,
        confidence: Double?, method: String, provider: String, model: String?, processingTime: Double,
        phrases: [TranscriptPhrase]?, retries: Int, truncated: Bool? = nil
    ) {
        self.session = session
        self.index = index
        self.t = end
        self.start = start
        self.end = end
        self.text = text
        self.language = language
        self.confidence = confidence
        self.method = method
        self.provider = provider
        self.model = model
        self.processingTime = processingTime
        self.words = text.split(whereSeparator: \.isWhitespace).count
        self.characters = text.count
        self.phrases = phrases
        self.retries = retries
        self.truncated = truncated
    }
}

/// A segment that could not be transcribed. `pending` is true when it was deferred for a later
/// retry (offline), false when it failed for good.
public struct TranscriptionFailed: StreamEvent, Equatable {
    public static let type = "transcription.failed"
    public var session: String
    public var index: Int
    public var t: Double
    public var error: String
    public var retries: Int
    public var retryable: Bool
    public var pending: Bool

    public init(session: String, index: Int, t: Double, error: String, retries: Int, retryable: Bool, pending: Bool) {
        self.session = session
        self.index = index
        self.t = t
        self.error = error
        self.retries = retries
        self.retryable = retryable
        self.pending = pending
    }
}

/// Written by a stage whose input broke off: what came before it is complete and kept.
public struct StreamInterrupted: StreamEvent, Equatable {
    public static let type = "stream.interrupted"
    /// The stage that saw the break.
    public var stage: String
    /// Byte offset in that stage's input.
    public var offset: Int
    public var reason: String

    public init(stage: String, offset: Int, reason: String) {
        self.stage = stage
        self.offset = offset
        self.reason = reason
    }
}
