/// The VAD's verdict on one hop of input: frame `index` covers samples
/// [index * hopSamples, (index + 1) * hopSamples) per channel.
public struct VADFrame: Sendable, Equatable {
    /// Hop number from the stream start.
    public var index: Int
    /// Smoothed speech probability, 0...1.
    public var probability: Float
    /// Decision after hysteresis and hangover.
    public var isSpeech: Bool
    /// The measurements behind the decision (including the hop's level).
    public var features: VADFeatures

    public init(index: Int, probability: Float, isSpeech: Bool, features: VADFeatures) {
        self.index = index
        self.probability = probability
        self.isSpeech = isSpeech
        self.features = features
    }
}
