/// Resamples one contiguous run of audio with exact length bookkeeping: a run of n input frames
/// comes out as exactly round(n x ratio) frames, whatever the engine's latency.
public final class RunResampler {
    private let converter: any RateConverter
    private let channels: Int
    private let inputRate: Int
    public let ratio: Double
    /// Input frames consumed and output frames produced in this run.
    public private(set) var inputFrames = 0
    public private(set) var outputFrames = 0

    public init(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws {
        converter = try RateConverterFactory.make(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: quality)
        self.channels = channels
        self.inputRate = inputRate
        self.ratio = Double(outputRate) / Double(inputRate)
    }

    /// Output frames a run of `frames` input frames is owed.
    public func expectedOutput(_ frames: Int) -> Int {
        Int((Double(frames) * ratio).rounded())
    }

    /// Replaces `output` with what the engine gives for `input` (interleaved).
    public func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws {
        output.removeAll(keepingCapacity: true)
        try converter.convert(input, endOfInput: false, into: &output)
        inputFrames += input.count / channels
        outputFrames += output.count / channels
    }

    /// Replaces `output` with the run's tail: the filter ringing into silence, fed past the
    /// filter's reach, cut so the run's total is exactly round(inputFrames x ratio).
    public func finish(into output: inout [Float]) throws {
        output.removeAll(keepingCapacity: true)
        let silence = [Float](repeating: 0, count: max(4096, inputRate / 10) * channels)
        try silence.withUnsafeBufferPointer { try converter.convert($0, endOfInput: true, into: &output) }
        let owed = max(0, expectedOutput(inputFrames) - outputFrames)
        output.removeLast(max(0, output.count - owed * channels))
        outputFrames += output.count / channels
    }
}
