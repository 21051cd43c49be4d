import Foundation

/// Mixes interleaved channels to mono (their mean) and low-passes and decimates the result by an
/// integer factor to the VAD's analysis rate (8 to 16 kHz), keeping everything below 3.5 kHz.
///
/// Output sample m is sum_j taps[j] * x[m * factor - j] (x before the stream start is zero), so it
/// is centred on input sample m * factor - (taps.count - 1) / 2.
final class VADDecimator {
    let channels: Int
    let factor: Int
    let tapCount: Int
    private let paddedCount: Int
    /// Taps stored reversed so that each output is one contiguous dot product over the history.
    private let reversedTaps: UnsafeMutablePointer<Float>
    /// Mono history: the last paddedCount - 1 samples, then up to `blockFrames` new ones.
    private let history: UnsafeMutablePointer<Float>
    private let blockFrames = 1024
    /// Input samples (per channel) consumed since the start.
    private(set) var consumed = 0

    /// Highest frequency the analysis uses, in Hz.
    static let bandTop = 3500.0

    init(inputRate: Double, channels: Int) {
        self.channels = channels
        factor = max(1, Int(inputRate / 8000))
        let analysisRate = inputRate / Double(factor)
        if factor == 1 {
            tapCount = 1
        } else {
            // Aliases may land above bandTop only: pass to bandTop, stop (40 dB, Kaiser) from
            // analysisRate - bandTop; 40 dB is ample for band energies and costs few taps.
            let transition = 2 * Double.pi * (analysisRate - 2 * Self.bandTop) / inputRate
            tapCount = Int(((40 - 8) / (2.285 * transition)).rounded(.up)) | 1
        }
        // Zero taps pad the filter to whole SIMD16 steps; they reach further back, not forward.
        paddedCount = (tapCount + 15) / 16 * 16
        reversedTaps = .allocate(capacity: paddedCount)
        reversedTaps.initialize(repeating: 0, count: paddedCount)
        let cutoff = 0.5 * analysisRate / inputRate
        let centre = Double(tapCount - 1) / 2
        var sum = 0.0
        var taps = [Double](repeating: 1, count: tapCount)
        if tapCount > 1 {
            for j in 0..<tapCount {
                let t = Double(j) - centre
                let sinc = t == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * t) / (Double.pi * t)
                let r = t / centre
                taps[j] = sinc * Self.besselI0(Self.kaiserBeta * (1 - r * r).squareRoot()) / Self.besselI0(Self.kaiserBeta)
                sum += taps[j]
            }
            for j in 0..<tapCount { taps[j] /= sum }
        }
        for j in 0..<tapCount { reversedTaps[paddedCount - 1 - j] = Float(taps[j]) }
        history = .allocate(capacity: paddedCount - 1 + blockFrames)
        history.initialize(repeating: 0, count: paddedCount - 1 + blockFrames)
    }

    /// Kaiser window shape for 40 dB stop-band attenuation.
    static let kaiserBeta = 0.5842 * pow(19.0, 0.4) + 0.07886 * 19

    /// Modified Bessel function of the first kind, order 0 (power series).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-12 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }

    deinit {
        reversedTaps.deallocate()
        history.deallocate()
    }

    /// Largest number of outputs one call to `push` can produce for `frames` input frames.
    func maxOutput(forFrames frames: Int) -> Int { frames / factor + 1 }

    /// Consumes `frames` interleaved frames, appends the decimated samples to `out`, returns their count.
    func push(_ interleaved: UnsafePointer<Float>, frames: Int, out: UnsafeMutablePointer<Float>) -> Int {
        var produced = 0
        var done = 0
        let keep = paddedCount - 1
        while done < frames {
            let n = min(blockFrames, frames - done)
            let dst = history + keep
            let src = interleaved + done * channels
            if channels == 1 {
                dst.update(from: src, count: n)
            } else {
                let scale = 1 / Float(channels)
                for i in 0..<n {
                    var s: Float = 0
                    for c in 0..<channels { s += src[i * channels + c] }
                    dst[i] = s * scale
                }
            }
            // First new sample whose global index is a multiple of factor.
            var i = (factor - consumed % factor) % factor
            while i < n {
                // Window ends at new sample i: history[i ... i + keep].
                out[produced] = VADKernels.dot(history + i, reversedTaps, count: paddedCount)
                produced += 1
                i += factor
            }
            if keep > 0 { history.update(from: history + n, count: keep) }
            consumed += n
            done += n
        }
        return produced
    }
}
