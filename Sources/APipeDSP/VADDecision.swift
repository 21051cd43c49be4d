import Foundation

/// Turns features into a speech probability and a decision.
///
/// A logistic model reads the four scale-free features three ways (this frame, and exponential
/// averages over about 30 ms and 100 ms) plus the frame's level relative to recent confident
/// speech (`relativeLevel`, which tells the talker from quieter babble behind). The probability is
/// smoothed (fast attack, slower release); the decision has hysteresis and a hangover.
struct VADDecision {
    /// Logistic weights on (meanBandSNR, totalSNR, whitenedFlatness, harmonicity) for the frame,
    /// its ~30 ms average and its ~100 ms average; then relativeLevel and the bias. Fitted by
    /// bench/vad/fit.py on the tuning set (seed and sentences apart from the reported set).
    static let weightsNow: SIMD4<Float> = [-0.0961, 0.0889, 0.0066, 1.0347]
    static let weightsFast: SIMD4<Float> = [-0.2200, 0.0439, 0.2511, -3.4071]
    static let weightsSlow: SIMD4<Float> = [-0.1104, 0.3168, -0.0280, 14.1335]
    static let weightRelativeLevel: Float = 0.1551
    static let bias: Float = -3.1939

    private(set) var probability: Float = 0
    private(set) var isSpeech = false
    private var belowFrames = 0
    private var fast = SIMD4<Float>()
    private var slow = SIMD4<Float>()
    private var started = false
    private var speechLevel: Float?
    private let fastRate: Float
    private let slowRate: Float
    private let levelUp: Float
    private let levelDown: Float
    private let levelDecay: Float
    private let attack: Float
    private let release: Float
    private let onThreshold: Float
    private let offThreshold: Float
    private let hangoverFrames: Int

    init(hop: Double, aggressiveness: Int) {
        func coefficient(_ tau: Double) -> Float { Float(1 - exp(-hop / tau)) }
        fastRate = coefficient(0.03)
        slowRate = coefficient(0.1)
        levelUp = coefficient(0.3)
        levelDown = coefficient(1.5)
        levelDecay = Float(1.0 * hop)
        attack = coefficient(0.01)
        release = coefficient(0.03)
        let shift = Float(aggressiveness - 1) * 0.1
        onThreshold = 0.5 + shift
        offThreshold = 0.35 + shift
        let hangover = [0.1, 0, 0, 0][aggressiveness]
        hangoverFrames = Int((hangover / hop).rounded())
    }

    /// Level of `levelDB` against recent confident speech, clamped to -40...10 dB (0 before any).
    func relativeLevel(_ levelDB: Float) -> Float {
        guard let speechLevel else { return 0 }
        return min(max(levelDB - speechLevel, -40), 10)
    }

    /// Probability of speech before smoothing; updates the feature averages.
    mutating func rawProbability(_ f: VADFeatures) -> Float {
        let x = SIMD4<Float>(f.meanBandSNR, f.totalSNR, f.whitenedFlatness, f.harmonicity)
        if !started {
            fast = x
            slow = x
            started = true
        }
        fast += fastRate * (x - fast)
        slow += slowRate * (x - slow)
        var z = (Self.weightsNow * x).sum() + (Self.weightsFast * fast).sum() + (Self.weightsSlow * slow).sum()
        z += Self.weightRelativeLevel * f.relativeLevel + Self.bias
        return 1 / (1 + exp(-z))
    }

    /// Takes one frame's features (with `relativeLevel` filled in); updates `probability`,
    /// `isSpeech` and the tracked speech level.
    mutating func update(_ features: VADFeatures) {
        let raw = rawProbability(features)
        probability += (raw > probability ? attack : release) * (raw - probability)
        if probability > 0.8 {
            if let level = speechLevel {
                speechLevel = level + (features.levelDB > level ? levelUp : levelDown) * (features.levelDB - level)
            } else {
                speechLevel = features.levelDB
            }
        } else if let level = speechLevel {
            speechLevel = level - levelDecay
        }
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
