import APipeStream
/// A speech recogniser atranscribe can call: audio of one segment in, text or a typed error out.
///
/// An engine receives mono audio at whatever rate the stream carries and converts it to its
/// `preferredRate` itself (`audio.resampled(to:)`). The queue calls `transcribe` from several
/// tasks at once (up to `--jobs`), so an engine must be safe to share.
public protocol TranscriptionEngine: Sendable {
    /// The name `--engine` selects (`openai`, `command`, `whisper`).
    var name: String { get }
    /// How the text was made, recorded in the transcription: `remote-api`, `external-command`, `local-whisper`.
    var method: String { get }
    /// Who made it: a host name, a command name, `whisper.cpp`-style engine name.
    var provider: String { get }
    /// The model asked for, when the engine knows one.
    var model: String? { get }
    /// The sample rate the engine wants its audio at.
    var preferredRate: Int { get }
    /// True when the engine talks to a server: the default `--jobs` is then 3, not the core count.
    var isNetwork: Bool { get }
    /// The longest audio one call may take; the queue splits longer segments into pieces.
    var maxSeconds: Double? { get }
    /// Transcribes one piece of audio; times in the result are seconds from the piece's start.
    func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult
    /// Releases connections and other resources; called once when the stage is done.
    func shutdown() async
}

extension TranscriptionEngine {
    public var maxSeconds: Double? { nil }
    public func shutdown() async {}
}

/// Mono audio of one segment (or a piece of one), samples in [-1, 1).
public struct SegmentAudio: Sendable, Equatable {
    public var samples: [Float]
    public var rate: Int

    public init(samples: [Float], rate: Int) {
        self.samples = samples
        self.rate = rate
    }

    /// Seconds of audio.
    public var duration: Double { Double(samples.count) / Double(rate) }

    /// The frames in `[from, to)` seconds, clamped to the audio.
    public func slice(from: Double, to: Double) -> SegmentAudio {
        let lower = max(0, min(samples.count, Int((from * Double(rate)).rounded())))
        let upper = max(lower, min(samples.count, Int((to * Double(rate)).rounded())))
        return SegmentAudio(samples: Array(samples[lower..<upper]), rate: rate)
    }
}

/// What an engine recognised in one piece of audio.
public struct EngineResult: Sendable, Equatable {
    public var text: String
    /// Language code or name as the engine reports it.
    public var language: String?
    /// 0...1, when the engine gives something to derive it from (mean token probability).
    public var confidence: Double?
    /// Timed phrases or words, seconds from the start of the piece (stream events shift them
    /// to session time).
    public var phrases: [TranscriptPhrase]
    /// The model that answered, when the engine reports it (overrides the engine's `model`).
    public var model: String?

    public init(text: String, language: String? = nil, confidence: Double? = nil, phrases: [TranscriptPhrase] = [], model: String? = nil) {
        self.text = text
        self.language = language
        self.confidence = confidence
        self.phrases = phrases
        self.model = model
    }
}
