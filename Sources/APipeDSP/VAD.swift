/// Streaming voice activity detector: interleaved float samples in, one `VADFrame` per hop out.
///
/// The channels are mixed to their mean, low-passed and decimated to an analysis rate of 8-16 kHz
/// (`VADDecimator`); each hop is judged from a 32 ms Hann window centred on it (`VADFeatureExtractor`:
/// band energies against an adaptive noise floor, whitened spectral flatness, harmonicity), then
/// `VADDecision` smooths and decides. A frame is reported once the window past its centre has
/// arrived (`latencySamples`), so the look-ahead is about 20 ms. Memory is fixed at `init`.
public final class VAD {
    /// The set-up this detector runs with.
    public let configuration: VADConfiguration
    /// Input samples per channel in one hop.
    public let hopSamples: Int
    /// Hop length in seconds (`hopSamples / sampleRate`).
    public var frameDuration: Double { Double(hopSamples) / configuration.sampleRate }
    /// Input samples per channel the detector needs past a hop's end before it reports that hop.
    public let latencySamples: Int

    private let decimator: VADDecimator
    private let extractor: VADFeatureExtractor
    private var decision: VADDecision
    private let chunkFrames = 4096
    /// Decimated samples; physical index p holds logical sample p + bufferBase.
    private let buffer: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var bufferBase: Int
    private var produced = 0
    private var nextFrame = 0
    private var inputFrames = 0
    private let zeros: UnsafeMutablePointer<Float>
    private let delay: Double

    /// Creates a detector, or throws naming the first configuration field out of range.
    public init(_ configuration: VADConfiguration) throws(VADError) {
        try configuration.validate()
        self.configuration = configuration
        hopSamples = max(1, Int((configuration.hop * configuration.sampleRate).rounded()))
        decimator = VADDecimator(inputRate: configuration.sampleRate, channels: configuration.channels)
        let analysisRate = configuration.sampleRate / Double(decimator.factor)
        let hopSeconds = Double(hopSamples) / configuration.sampleRate
        extractor = VADFeatureExtractor(analysisRate: analysisRate, hop: hopSeconds)
        decision = VADDecision(hop: hopSeconds, aggressiveness: configuration.aggressiveness)
        delay = Double(decimator.tapCount - 1) / 2
        let window = extractor.windowLength
        let hopDecimated = hopSamples / decimator.factor + 2
        capacity = 2 * window + 2 * hopDecimated + decimator.maxOutput(forFrames: chunkFrames) + 16
        buffer = .allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        bufferBase = -window
        zeros = .allocate(capacity: hopSamples * configuration.channels)
        zeros.initialize(repeating: 0, count: hopSamples * configuration.channels)
        let lookAhead = Double(window) / 2 * Double(decimator.factor) - Double(hopSamples) / 2 + delay
        latencySamples = max(0, Int(lookAhead.rounded(.up)) + decimator.factor)
    }

    deinit {
        buffer.deallocate()
        zeros.deallocate()
    }

    /// Feeds `samples` (interleaved, `configuration.channels` per frame; a trailing partial frame is
    /// ignored) and appends every frame that became decidable to `frames`.
    public func process(_ samples: UnsafeBufferPointer<Float>, into frames: inout [VADFrame]) {
        guard let base = samples.baseAddress else { return }
        let channels = configuration.channels
        let total = samples.count / channels
        var done = 0
        while done < total {
            let n = min(chunkFrames, total - done)
            push(base + done * channels, frames: n, into: &frames)
            done += n
        }
    }

    /// Ends the stream: pads with silence and appends the frames still pending, up to the last hop
    /// that holds input. The detector takes no more input afterwards.
    public func finish(into frames: inout [VADFrame]) {
        let needed = (inputFrames + hopSamples - 1) / hopSamples
        while nextFrame < needed {
            push(zeros, frames: hopSamples, into: &frames, limit: needed)
        }
    }

    /// Window start and hop span of frame i, as logical decimated indices.
    private func span(of i: Int) -> (windowStart: Int, hopStart: Int, hopEnd: Int) {
        let factor = Double(decimator.factor)
        let centre = ((Double(i) + 0.5) * Double(hopSamples) + delay) / factor
        let windowStart = Int((centre - Double(extractor.windowLength) / 2).rounded())
        let hopStart = Int(((Double(i * hopSamples) + delay) / factor).rounded(.up))
        let hopEnd = Int(((Double((i + 1) * hopSamples) + delay) / factor).rounded(.up))
        return (windowStart, hopStart, hopEnd)
    }

    private func push(
        _ interleaved: UnsafePointer<Float>, frames n: Int, into frames: inout [VADFrame], limit: Int = .max
    ) {
        // Keep from the oldest sample the next frame needs, so the new output fits.
        let next = span(of: nextFrame)
        let keepFrom = min(next.windowStart, next.hopStart, produced)
        let shift = keepFrom - bufferBase
        let used = produced - bufferBase
        if shift > 0, used + decimator.maxOutput(forFrames: n) > capacity {
            buffer.update(from: buffer + shift, count: used - shift)
            bufferBase = keepFrom
        }
        let count = decimator.push(interleaved, frames: n, out: buffer + (produced - bufferBase))
        produced += count
        inputFrames += n
        let window = extractor.windowLength
        while nextFrame < limit {
            let s = span(of: nextFrame)
            guard produced >= max(s.windowStart + window, s.hopEnd) else { break }
            let hop = UnsafeBufferPointer(start: buffer + (s.hopStart - bufferBase), count: s.hopEnd - s.hopStart)
            var features = extractor.measure(
                buffer + (s.windowStart - bufferBase), hop: hop,
                noiseLikelihood: 1 - decision.probability)
            features.relativeLevel = decision.relativeLevel(features.levelDB)
            decision.update(features)
            frames.append(
                VADFrame(
                    index: nextFrame, probability: decision.probability, isSpeech: decision.isSpeech,
                    features: features))
            nextFrame += 1
        }
    }
}
