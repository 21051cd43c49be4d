/// How to transcribe: language, prompt, decoding rules and thresholds.
public struct WhisperOptions: Sendable {
    /// Language code (`en`, `de`, ...); nil detects it (multilingual models) or means `en` (`.en` models).
    public var language: String?
    /// Translate to English instead of transcribing (multilingual models only).
    public var translate: Bool
    /// Text that conditions the first window (vocabulary, spelling, style).
    public var prompt: String?
    /// Feed each window's text to the next as its prompt (the reference default).
    public var conditionOnPreviousText: Bool
    /// Temperatures tried in order until a decoding passes the thresholds; `[0]` is greedy only.
    public var temperatures: [Float]
    /// Samples drawn at each temperature above 0; the likeliest is kept.
    public var bestOf: Int
    /// A decoding whose text compresses better than this (repetition) is retried hotter.
    public var compressionRatioThreshold: Float
    /// A decoding with a lower average log-probability is retried hotter.
    public var logProbThreshold: Float
    /// A window with a higher no-speech probability (and low log-probability) is skipped as silence.
    public var noSpeechThreshold: Float
    /// Predict timestamps (per-phrase timings); false decodes one text per window.
    public var timestamps: Bool
    /// Latest first timestamp, in seconds.
    public var maxInitialTimestamp: Float
    /// OpenBLAS threads (process-wide); nil keeps the current setting (the core count by default).
    public var threads: Int?
    /// Encode only the audio of a window shorter than 30 s instead of the zero-padded full window.
    /// Faster on short segments; off by default because the model was trained on full windows.
    public var shortenEncoderContext: Bool
    /// Seed of the sampler used at temperatures above 0 (decoding stays deterministic).
    public var seed: UInt64

    /// The reference defaults (openai/whisper `transcribe`, greedy).
    public init(
        language: String? = nil, translate: Bool = false, prompt: String? = nil, conditionOnPreviousText: Bool = true,
        temperatures: [Float] = [0, 0.2, 0.4, 0.6, 0.8, 1.0], bestOf: Int = 5, compressionRatioThreshold: Float = 2.4,
        logProbThreshold: Float = -1, noSpeechThreshold: Float = 0.6, timestamps: Bool = true,
        maxInitialTimestamp: Float = 1, threads: Int? = nil, shortenEncoderContext: Bool = false, seed: UInt64 = 0
    ) {
        self.language = language
        self.translate = translate
        self.prompt = prompt
        self.conditionOnPreviousText = conditionOnPreviousText
        self.temperatures = temperatures
        self.bestOf = bestOf
        self.compressionRatioThreshold = compressionRatioThreshold
        self.logProbThreshold = logProbThreshold
        self.noSpeechThreshold = noSpeechThreshold
        self.timestamps = timestamps
        self.maxInitialTimestamp = maxInitialTimestamp
        self.threads = threads
        self.shortenEncoderContext = shortenEncoderContext
        self.seed = seed
    }
}
