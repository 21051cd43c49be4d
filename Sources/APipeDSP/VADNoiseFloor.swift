import Foundation

/// Adaptive noise floor of each band, in log2 power: falls fast, rises slowly, and never stays below
/// the minimum of the recent past, so a noise that starts during a pause is learnt within `window`.
///
/// Three estimates meet here. A tracker follows each band's smoothed level down within tens of
/// milliseconds and up by a limited slope; while the frame is judged noise the tracker also moves
/// towards the level with a time constant of a fraction of a second. A sliding minimum over a few
/// seconds (sub-window minima, as in minimum statistics) bounds the floor from below.
final class VADNoiseFloor {
    let bands: Int
    /// Current floor per band (log2 power).
    let floor: UnsafeMutablePointer<Float>
    private let smoothed: UnsafeMutablePointer<Float>
    /// Minima of the last completed sub-windows, `subs` rows of `bands`.
    private let subMinimum: UnsafeMutablePointer<Float>
    /// Minimum over the completed sub-windows, per band.
    private let pastMinimum: UnsafeMutablePointer<Float>
    /// Minimum over the sub-window in progress, per band.
    private let currentMinimum: UnsafeMutablePointer<Float>
    private let subs = 6
    private var subIndex = 0
    private var framesInSub = 0
    private let framesPerSub: Int
    private var started = false
    private let smoothing: Float
    private let fall: Float
    private let noiseRise: Float
    private let maxRise: Float

    /// `hop` in seconds between updates; `window` the span of the sliding minimum in seconds.
    init(bands: Int, hop: Double, window: Double = 3.0) {
        self.bands = bands
        func buffer(_ n: Int, _ value: Float) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: n)
            p.initialize(repeating: value, count: n)
            return p
        }
        floor = buffer(bands, 0)
        smoothed = buffer(bands, 0)
        subMinimum = buffer(bands * subs, .greatestFiniteMagnitude)
        pastMinimum = buffer(bands, .greatestFiniteMagnitude)
        currentMinimum = buffer(bands, .greatestFiniteMagnitude)
        framesPerSub = max(1, Int((window / Double(subs) / hop).rounded()))
        func coefficient(_ tau: Double) -> Float { Float(1 - exp(-hop / tau)) }
        smoothing = coefficient(0.02)
        fall = coefficient(0.04)
        noiseRise = coefficient(0.4)
        // log2 units per update: 3 dB/s.
        maxRise = Float(3.0 / 3.0103 * hop)
    }

    deinit {
        floor.deallocate(); smoothed.deallocate(); subMinimum.deallocate()
        pastMinimum.deallocate(); currentMinimum.deallocate()
    }

    /// Updates with the frame's band levels (log2 power) and how sure it is to be noise (0...1).
    func update(levels: UnsafePointer<Float>, noiseLikelihood: Float) {
        if !started {
            floor.update(from: levels, count: bands)
            smoothed.update(from: levels, count: bands)
            started = true
        }
        let toward = noiseRise * noiseLikelihood
        for b in 0..<bands {
            let level = smoothed[b] + smoothing * (levels[b] - smoothed[b])
            smoothed[b] = level
            var f = floor[b]
            if level < f {
                f += fall * (level - f)
            } else {
                f += min(level - f, maxRise) + toward * (level - f)
            }
            currentMinimum[b] = min(currentMinimum[b], level)
            floor[b] = max(f, min(pastMinimum[b], currentMinimum[b]))
        }
        framesInSub += 1
        if framesInSub == framesPerSub {
            for b in 0..<bands {
                subMinimum[subIndex * bands + b] = currentMinimum[b]
                currentMinimum[b] = .greatestFiniteMagnitude
                pastMinimum[b] = .greatestFiniteMagnitude
            }
            for s in 0..<subs {
                for b in 0..<bands { pastMinimum[b] = min(pastMinimum[b], subMinimum[s * bands + b]) }
            }
            subIndex = (subIndex + 1) % subs
            framesInSub = 0
        }
    }
}
