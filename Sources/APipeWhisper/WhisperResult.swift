/// One timed phrase of a transcription.
public struct WhisperPhrase: Sendable, Equatable {
    /// Start, seconds from the start of the audio.
    public let start: Double
    /// End, seconds from the start of the audio.
    public let end: Double
    /// Text, trimmed.
    public let text: String
    /// Token ids (text and timestamps).
    public let tokens: [Int]
    /// Mean log-probability of the phrase's tokens.
    public let avgLogProb: Float
}

/// A transcription of a whole input.
public struct WhisperResult: Sendable, Equatable {
    /// All phrases' text joined by spaces.
    public let text: String
    /// Language code used (detected or given; `en` for English-only models).
    public let language: String
    /// Timed phrases in order.
    public let phrases: [WhisperPhrase]
    /// Mean token log-probability over the decoded windows.
    public let avgLogProb: Float
    /// Highest no-speech probability among decoded windows (0 when none was decoded).
    public let noSpeechProb: Float
    /// `exp(avgLogProb)`: the geometric-mean token probability, 0...1.
    public let confidence: Float
    /// All decoded token ids, in order.
    public let tokens: [Int]
    /// Audio length in seconds.
    public let duration: Double
}
