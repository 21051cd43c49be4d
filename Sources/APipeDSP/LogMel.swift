import Foundation

/// Whisper's log-mel front end: 16 kHz audio to normalised log-mel frames.
///
/// Same arithmetic as openai/whisper `log_mel_spectrogram`: periodic Hann window of 400,
/// hop 160, centred STFT with reflect padding, last frame dropped, power spectrum, Slaney
/// mel filters, `log10(max(x, 1e-10))`, clamp to the global maximum minus 8, `(x + 4) / 4`.
/// Output is frame-major: `frames` rows of `melCount` values. Frame counts are per channel.
public struct LogMel: Sendable {
    /// Samples per second the front end expects.
    public static let sampleRate = 16_000
    /// STFT length (25 ms).
    public static let fftSize = 400
    /// STFT hop (10 ms), so 100 frames per second.
    public static let hop = 160
    /// Frames in one 30 s Whisper window.
    public static let windowFrames = 3000
    /// Frequency bins of the one-sided spectrum.
    static let binCount = fftSize / 2 + 1
    /// Bins padded to a whole number of SIMD16 lanes.
    static let paddedBins = (binCount + 15) / 16 * 16

    /// Number of mel bands (80, or 128 for large-v3).
    public let melCount: Int
    /// Mel filters, `melCount` rows of `binCount` weights.
    let filters: [Float]
    /// First and one-past-last non-zero bin of each filter.
    let filterRanges: [Range<Int>]
    /// Windowed DFT basis, `fftSize` rows of `paddedBins` cosines then `paddedBins` sines.
    let basis: [SIMD16<Float>]

    /// Builds the filters and the windowed DFT basis for `melCount` bands.
    public init(melCount: Int = 80) {
        self.melCount = melCount
        let weights = LogMel.slaneyFilters(melCount: melCount)
        filters = weights
        filterRanges = (0..<melCount).map { m in
            let row = m * LogMel.binCount
            let nonZero = (0..<LogMel.binCount).filter { weights[row + $0] != 0 }
            guard let first = nonZero.first, let last = nonZero.last else { return 0..<0 }
            return first..<(last + 1)
        }
        basis = LogMel.windowedBasis()
    }

    /// Log-mel of `samples` followed by `paddingSamples` zeros (Whisper pads 30 s).
    ///
    /// Returns `(samples.count + paddingSamples) / hop` frames of `melCount` values.
    public func compute(_ samples: [Float], paddingSamples: Int = 0) -> LogMelSpectrogram {
        let length = samples.count + paddingSamples
        let frames = length / LogMel.hop
        let half = LogMel.fftSize / 2
        guard frames > 0 else { return LogMelSpectrogram(frames: 0, melCount: melCount, values: []) }
        // Centre-padded signal: `half` reflected samples either side of the (zero-extended) input.
        var padded = [Float](repeating: 0, count: length + 2 * half)
        for i in 0..<samples.count { padded[half + i] = samples[i] }
        for k in 1...half {
            padded[half - k] = k < length ? padded[half + k] : 0
            let src = half + length - 1 - k
            padded[half + length - 1 + k] = src >= half ? padded[src] : 0
        }
        // Frames whose window lies wholly in the zero padding have zero power: skip their DFT.
        let lastLive = samples.isEmpty ? -1 : min(frames - 1, (samples.count - 1 + half) / LogMel.hop)
        var values = [Float](repeating: 0, count: frames * melCount)
        var power = [Float](repeating: 0, count: 4 * LogMel.paddedBins)
        var frame = 0
        while frame <= lastLive {
            let count = min(4, lastLive + 1 - frame)
            powerSpectra(padded, firstFrame: frame, count: count, into: &power)
            for f in 0..<count { applyFilters(power, row: f, into: &values, frame: frame + f) }
            frame += count
        }
        let floorValue = Float(-10)
        var maximum = lastLive < frames - 1 ? floorValue : -Float.infinity
        for i in 0..<((lastLive + 1) * melCount) {
            let v = log10(Swift.max(values[i], 1e-10))
            values[i] = v
            maximum = Swift.max(maximum, v)
        }
        let low = maximum - 8
        for i in 0..<((lastLive + 1) * melCount) { values[i] = (Swift.max(values[i], low) + 4) / 4 }
        let silent = (Swift.max(floorValue, low) + 4) / 4
        for i in ((lastLive + 1) * melCount)..<(frames * melCount) { values[i] = silent }
        return LogMelSpectrogram(frames: frames, melCount: melCount, values: values)
    }

    /// Power spectra of `count` (1...4) consecutive frames into rows of `paddedBins`.
    func powerSpectra(_ padded: [Float], firstFrame: Int, count: Int, into power: inout [Float]) {
        let lanes = LogMel.paddedBins / 16
        padded.withUnsafeBufferPointer { signal in
            basis.withUnsafeBufferPointer { basis in
                power.withUnsafeMutableBufferPointer { power in
                    let s0 = firstFrame * LogMel.hop
                    let s1 = s0 + (count > 1 ? LogMel.hop : 0)
                    let s2 = s0 + (count > 2 ? 2 * LogMel.hop : 0)
                    let s3 = s0 + (count > 3 ? 3 * LogMel.hop : 0)
                    for lane in 0..<lanes {
                        var re0 = SIMD16<Float>(), im0 = SIMD16<Float>(), re1 = SIMD16<Float>(), im1 = SIMD16<Float>()
                        var re2 = SIMD16<Float>(), im2 = SIMD16<Float>(), re3 = SIMD16<Float>(), im3 = SIMD16<Float>()
                        for n in 0..<LogMel.fftSize {
                            let c = basis[n * 2 * lanes + lane]
                            let s = basis[n * 2 * lanes + lanes + lane]
                            let x0 = signal[s0 + n], x1 = signal[s1 + n], x2 = signal[s2 + n], x3 = signal[s3 + n]
                            re0 += x0 * c; im0 += x0 * s
                            re1 += x1 * c; im1 += x1 * s
                            re2 += x2 * c; im2 += x2 * s
                            re3 += x3 * c; im3 += x3 * s
                        }
                        let base = lane * 16
                        for i in 0..<16 {
                            power[base + i] = re0[i] * re0[i] + im0[i] * im0[i]
                            power[LogMel.paddedBins + base + i] = re1[i] * re1[i] + im1[i] * im1[i]
                            power[2 * LogMel.paddedBins + base + i] = re2[i] * re2[i] + im2[i] * im2[i]
                            power[3 * LogMel.paddedBins + base + i] = re3[i] * re3[i] + im3[i] * im3[i]
                        }
                    }
                }
            }
        }
    }

    /// Mel energies of power row `row` into frame `frame` of `values`.
    func applyFilters(_ power: [Float], row: Int, into values: inout [Float], frame: Int) {
        let p = row * LogMel.paddedBins
        for m in 0..<melCount {
            var sum: Float = 0
            let w = m * LogMel.binCount
            for k in filterRanges[m] { sum += filters[w + k] * power[p + k] }
            values[frame * melCount + m] = sum
        }
    }

    /// Hann-windowed cosine and sine rows, one pair per sample index.
    static func windowedBasis() -> [SIMD16<Float>] {
        let lanes = paddedBins / 16
        var basis = [SIMD16<Float>](repeating: SIMD16<Float>(), count: fftSize * 2 * lanes)
        for n in 0..<fftSize {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(fftSize))
            for k in 0..<binCount {
                // n*k mod N keeps the angle exact for large products.
                let angle = 2 * Double.pi * Double((n * k) % fftSize) / Double(fftSize)
                basis[n * 2 * lanes + k / 16][k % 16] = Float(window * cos(angle))
                basis[n * 2 * lanes + lanes + k / 16][k % 16] = Float(-window * sin(angle))
            }
        }
        return basis
    }
}

/// Frame-major log-mel values: `frames` rows of `melCount`.
public struct LogMelSpectrogram: Sendable {
    /// Number of 10 ms frames.
    public let frames: Int
    /// Values per frame.
    public let melCount: Int
    /// `frames * melCount` values, frame after frame.
    public let values: [Float]

    /// Frames `start..<start+frames` followed by zeros up to `count` frames, as Whisper feeds
    /// a window (`pad_or_trim` pads the normalised log-mel with 0).
    public func window(start: Int, frames: Int, paddedTo count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count * melCount)
        let available = Swift.max(0, Swift.min(frames, count, self.frames - start))
        if available > 0 {
            for i in 0..<(available * melCount) { out[i] = values[start * melCount + i] }
        }
        return out
    }
}
