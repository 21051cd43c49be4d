import Foundation

/// What the VAD measured in one analysis window (all scale-free except `levelDB`).
public struct VADFeatures: Sendable, Equatable {
    /// Mean over bands of the band's level above its noise floor, negative parts counted as 0 (dB).
    public var meanBandSNR: Float = 0
    /// Whole-band (80 Hz to 3.5 kHz) level above the summed noise floor (dB).
    public var totalSNR: Float = 0
    /// Spectral flatness of the noise-whitened spectrum: geometric over arithmetic mean (dB, <= 0).
    /// Near -2.5 dB for any stationary noise, lower for the peaks of voiced speech.
    public var whitenedFlatness: Float = 0
    /// Peak, over pitch lags 2.5 to 14 ms, of the normalised autocorrelation of the noise-whitened
    /// frame: near 1 for voiced speech, about 0.2 for noise.
    public var harmonicity: Float = 0
    /// Level of the hop's samples (below 3.5 kHz) in dB relative to full scale.
    public var levelDB: Float = -120
    /// `levelDB` against the tracked level of recent confident speech, -40...10 dB (0 before any).
    public var relativeLevel: Float = 0
}

/// Turns windows of the analysis-rate signal into `VADFeatures`: Hann window, real FFT, band
/// energies against `VADNoiseFloor`, whitened flatness and harmonicity (autocorrelation).
final class VADFeatureExtractor {
    let analysisRate: Double
    let windowLength: Int
    let fftSize: Int
    private let fft: RealFFT
    private let window: UnsafeMutablePointer<Float>
    private let frame: UnsafeMutablePointer<Float>
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let power: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>
    private let bandLevels: UnsafeMutablePointer<Float>
    private let floorPower: UnsafeMutablePointer<Float>
    private let inverseWindowCorrelation: UnsafeMutablePointer<Float>
    /// Bin range [bandStart[b], bandStart[b + 1]) of each band.
    private let bandStart: UnsafeMutablePointer<Int>
    /// Spectrum fed to the harmonicity transform: zero outside the pitch bins, imaginary part zero.
    private let pitchRe: UnsafeMutablePointer<Float>
    private let pitchIm: UnsafeMutablePointer<Float>
    private let bandCount: Int
    /// Bins used for the harmonicity: [firstBin, pitchTopBin).
    private let pitchTopBin: Int
    private let lagRange: ClosedRange<Int>
    private let noiseFloor: VADNoiseFloor

    init(analysisRate: Double, hop: Double) {
        self.analysisRate = analysisRate
        windowLength = Int((0.032 * analysisRate).rounded())
        var n = 4
        while n < 2 * windowLength { n *= 2 }
        fftSize = n
        fft = RealFFT(size: n)!
        let bins = n / 2 + 1
        window = .allocate(capacity: windowLength)
        for i in 0..<windowLength {
            window[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(windowLength)))
        }
        frame = .allocate(capacity: n)
        frame.initialize(repeating: 0, count: n)
        re = .allocate(capacity: bins)
        im = .allocate(capacity: bins)
        power = .allocate(capacity: bins)
        scratch = .allocate(capacity: n)
        let binHz = analysisRate / Double(n)
        let top = min(VADDecimator.bandTop, 0.45 * analysisRate)
        // 16 bands evenly spaced on the mel scale from 150 Hz to the top, at least one bin each.
        func mel(_ f: Double) -> Double { 2595 * log10(1 + f / 700) }
        func hz(_ m: Double) -> Double { 700 * (pow(10, m / 2595) - 1) }
        var starts: [Int] = []
        let lowMel = mel(150), highMel = mel(top)
        for b in 0...16 {
            let bin = Int((hz(lowMel + (highMel - lowMel) * Double(b) / 16) / binHz).rounded())
            if let last = starts.last, bin <= last { continue }
            starts.append(bin)
        }
        bandStart = .allocate(capacity: starts.count)
        bandStart.initialize(from: starts, count: starts.count)
        bandCount = starts.count - 1
        pitchRe = .allocate(capacity: bins)
        pitchRe.initialize(repeating: 0, count: bins)
        pitchIm = .allocate(capacity: bins)
        pitchIm.initialize(repeating: 0, count: bins)
        bandLevels = .allocate(capacity: bandCount)
        pitchTopBin = min(starts[bandCount], Int((3000 / binHz).rounded()))
        lagRange = Int(analysisRate / 400)...min(Int(analysisRate / 70), windowLength / 2)
        // 1 / (window autocorrelation at lag / at 0), so a periodic frame scores 1 at its period.
        inverseWindowCorrelation = .allocate(capacity: lagRange.count)
        var energy = 0.0
        for i in 0..<windowLength { energy += Double(window[i] * window[i]) }
        for (j, lag) in lagRange.enumerated() {
            var c = 0.0
            for i in 0..<(windowLength - lag) { c += Double(window[i] * window[i + lag]) }
            inverseWindowCorrelation[j] = Float(energy / c)
        }
        floorPower = .allocate(capacity: bandCount)
        noiseFloor = VADNoiseFloor(bands: bandCount, hop: hop)
    }

    deinit {
        window.deallocate(); frame.deallocate()
        re.deallocate(); im.deallocate(); power.deallocate(); scratch.deallocate()
        bandLevels.deallocate(); bandStart.deallocate(); floorPower.deallocate()
        inverseWindowCorrelation.deallocate()
        pitchRe.deallocate(); pitchIm.deallocate()
    }

    /// Measures the window `samples[0..<windowLength]`; `hop` is the hop's own span for its level.
    /// `noiseLikelihood` (0...1, from the previous decision) steers how fast the floor may rise.
    func measure(
        _ samples: UnsafePointer<Float>, hop: UnsafeBufferPointer<Float>, noiseLikelihood: Float
    ) -> VADFeatures {
        var features = VADFeatures()
        if let base = hop.baseAddress, hop.count > 0 {
            let meanSquare = VADKernels.dot(base, base, count: hop.count) / Float(hop.count)
            features.levelDB = 10 * log10(meanSquare + 1e-12)
        }
        VADKernels.multiply(samples, window, out: frame, count: windowLength)
        fft.forward(frame, real: re, imag: im)
        let first = bandStart[0], end = bandStart[bandCount]
        VADKernels.power(re: re + first, im: im + first, out: power + first, count: end - first)

        // Band levels (log2 power; a tiny absolute floor keeps digital silence finite).
        let tiny = Float(1e-11) * Float(windowLength)
        for b in 0..<bandCount {
            scratch[b] = tiny + VADKernels.sum(power + bandStart[b], count: bandStart[b + 1] - bandStart[b])
        }
        let totalSignal = VADKernels.sum(scratch, count: bandCount)
        VADKernels.log2(scratch, out: bandLevels, count: bandCount, floor: tiny)

        // SNRs against the floor learnt so far; whitening gain per bin = bins in band / floor power.
        let dBPerLog2: Float = 3.010_3
        var snrSum: Float = 0
        VADKernels.exp2(noiseFloor.floor, out: floorPower, count: bandCount)
        for b in 0..<bandCount {
            snrSum += max(0, bandLevels[b] - noiseFloor.floor[b])
            let gain = Float(bandStart[b + 1] - bandStart[b]) / floorPower[b]
            for k in bandStart[b]..<bandStart[b + 1] { scratch[k] = gain }
        }
        let totalFloor = VADKernels.sum(floorPower, count: bandCount)
        features.meanBandSNR = dBPerLog2 * snrSum / Float(bandCount)
        features.totalSNR = dBPerLog2 * VADKernels.log2Scalar(totalSignal / totalFloor)
        noiseFloor.update(levels: bandLevels, noiseLikelihood: noiseLikelihood)

        // Whitened spectrum w = power * gain; flatness = mean(log2 w) - log2(mean w).
        let count = end - first
        VADKernels.multiply(power + first, scratch + first, out: power + first, count: count)
        let sum = VADKernels.sum(power + first, count: count)
        // The same small floor inside both logs keeps flatness <= 0 (Jensen), even for digital silence.
        let epsilon: Float = 1e-6
        VADKernels.log2(power + first, out: scratch + first, count: count, floor: epsilon)
        let logSum = VADKernels.sum(scratch + first, count: count)
        features.whitenedFlatness = dBPerLog2 * (logSum / Float(count) - VADKernels.log2Scalar(sum / Float(count) + epsilon))

        features.harmonicity = harmonicity(whitened: power, first: first)
        return features
    }

    /// Normalised autocorrelation of the whitened frame: the inverse transform of the whitened power
    /// spectrum (80 Hz to 3 kHz; the window is zero-padded to twice its length, so the correlation
    /// does not wrap), over r(0) and the window's own autocorrelation, peak over lags 2.5-14 ms.
    private func harmonicity(whitened: UnsafePointer<Float>, first: Int) -> Float {
        let count = pitchTopBin - first
        guard count > 4 else { return 0 }
        pitchRe.advanced(by: first).update(from: whitened + first, count: count)
        fft.inverse(real: pitchRe, imag: pitchIm, output: scratch)
        let zeroLag = scratch[0]
        guard zeroLag > 0 else { return 0 }
        let n = lagRange.count
        VADKernels.multiply(scratch + lagRange.lowerBound, inverseWindowCorrelation, out: scratch, count: n)
        return VADKernels.maximum(scratch, count: n) / zeroLag
    }
}
