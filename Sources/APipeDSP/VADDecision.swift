import Foundation

/// Turns features into a speech probability (a logistic model), smooths it (fast attack, slower
/// release), and makes the frame decision with hysteresis and a hangover.
struct VADDecision {
    /// Logistic weights on (meanBandSNR, totalSNR, whitenedFlatness, harmonicity) and the bias,
    /// fitted on the bench's tuning set (bench/vad, seed and sentences apart from the report set).
    static let weights: SIMD4<Float> = [0.30, 0.0, -0.40, 5.0]
    static let bias: Float = -8.0

    private(set) var probability: Float = 0
    private(set) var isSpeech = false
    private var belowFrames = 0
    private let attack: Float
    private let release: Float
    private let onThreshold: Float
    private let offThreshold: Float
    private let hangoverFrames: Int

    init(hop: Double, aggressiveness: Int) {
        func coefficient(_ tau: Double) -> Float { Float(1 - exp(-hop / tau)) }
        attack = coefficient(0.01)
        release = coefficient(0.08)
        let shift = Float(aggressiveness - 1) * 0.1
        onThreshold = 0.5 + shift
        offThreshold = 0.35 + shift
        let hangover = [0.3, 0.2, 0.15, 0.1][aggressiveness]
        hangoverFrames = Int((hangover / hop).rounded())
    }

    /// Probability of speech before smoothing.
    static func rawProbability(_ f: VADFeatures) -> Float {
        let x = SIMD4<Float>(f.meanBandSNR, f.totalSNR, f.whitenedFlatness, f.harmonicity)
        let z = (weights * x).sum() + bias
        return 1 / (1 + exp(-z))
    }

    /// Takes one frame's features; updates `probability` and `isSpeech`.
    mutating func update(_ features: VADFeatures) {
        let raw = Self.rawProbability(features)
        probability += (raw > probability ? attack : release) * (raw - probability)
        if isSpeech {
            if probability < offThreshold {
                belowFrames += 1
                if belowFrames > hangoverFrames { isSpeech = false }
            } else {
                belowFrames = 0
            }
        } else if probability >= onThreshold {
            isSpeech = true
            belowFrames = 0
        }
    }
}
