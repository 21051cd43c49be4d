import APipeStream

/// The rules that turn frame probabilities into segments (`asegment`'s options).
public struct SegmenterOptions: Sendable, Equatable {
    /// Speech probability at which a frame counts as speech; nil picks one from `aggressiveness`.
    /// Speech continues while the probability stays above `threshold - 0.15` (hysteresis).
    public var threshold: Double?
    /// Shortest stretch of speech that opens a segment, in seconds.
    public var minSpeech: Double = 0.25
    /// Non-speech that closes a segment, in seconds.
    public var minSilence: Double = 0.5
    /// Audio kept before the first and after the last speech frame of a segment, in seconds.
    public var pad: Double = 0.2
    /// Longest segment in seconds; a longer stretch is cut at the quietest point of its last
    /// `maxLengthSearch` seconds.
    public var maxLength: Double = 30
    /// Cut every `fixed` seconds and run no VAD.
    public var fixed: Double?
    /// 0 (keeps the most) to 3 (drops the most non-speech): the default threshold and the VAD's mode.
    public var aggressiveness: Int = 1

    public init(
        threshold: Double? = nil, minSpeech: Double = 0.25, minSilence: Double = 0.5, pad: Double = 0.2,
        maxLength: Double = 30, fixed: Double? = nil, aggressiveness: Int = 1
    ) {
        self.threshold = threshold
        self.minSpeech = minSpeech
        self.minSilence = minSilence
        self.pad = pad
        self.maxLength = maxLength
        self.fixed = fixed
        self.aggressiveness = aggressiveness
    }

    /// The threshold in force: the explicit one, else 0.35, 0.5, 0.65, 0.8 for aggressiveness 0-3.
    public var effectiveThreshold: Double { threshold ?? [0.35, 0.5, 0.65, 0.8][min(max(aggressiveness, 0), 3)] }

    /// Seconds before a max-length cut in which the quietest point is sought.
    public var maxLengthSearch: Double { min(3, maxLength / 3) }

    /// Checks every option, naming the first one out of range.
    public func validate() throws(SegmenterOptionError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(SegmenterOptionError) {
            guard value.isFinite, range.contains(value) else { throw .outOfRange(option: name, value: value, range: range) }
        }
        if let threshold { try check("threshold", threshold, 0.01...0.99) }
        try check("min-speech", minSpeech, 0...60)
        try check("min-silence", minSilence, 0.01...60)
        try check("pad", pad, 0...10)
        try check("max-length", maxLength, 1...3600)
        if let fixed { try check("fixed", fixed, 0.1...3600) }
        try check("aggressiveness", Double(aggressiveness), 0...3)
        guard 2 * pad < maxLength else {
            throw .inconsistent("--pad \(pad) s leaves no speech in a --max-length \(maxLength) s segment")
        }
    }
}

/// An option out of its range, or options that contradict each other.
public enum SegmenterOptionError: Error, Equatable, Sendable, CustomStringConvertible, ToolFailure {
    public var exitStatus: ExitStatus { .usage }

    case outOfRange(option: String, value: Double, range: ClosedRange<Double>)
    case inconsistent(String)

    public var description: String {
        switch self {
        case .outOfRange(let option, let value, let range):
            func show(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x) }
            return "--\(option) \(show(value)) is out of range (\(show(range.lowerBound)) to \(show(range.upperBound)))"
        case .inconsistent(let text):
            return text
        }
    }
}
