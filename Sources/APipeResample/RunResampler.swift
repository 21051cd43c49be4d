/// Resamples one contiguous run of audio and keeps its counts, so that positions stay exact:
/// a run of n input frames comes out as exactly round(n x ratio) frames.
public final class RunResampler {
    private let converter: any RateConverter
    private let channels: Int
    public let ratio: Double
    /// Input frames consumed and output frames produced in this run.
    public private(set) var inputFrames = 0
    public private(set) var outputFrames = 0

    public init(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality, engine: ResampleEngine) throws {
        converter = try engine.converter(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: quality)
        self.channels = channels
        self.ratio = Double(outputRate) / Double(inputRate)
    }

    /// Output frames a run of `frames` input frames is owed.
    public func expectedOutput(_ frames: Int) -> Int {
        Int((Double(frames) * ratio).rounded())
    }

    /// Replaces `output` with what the engine gives for `input` (interleaved).
    public func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws {
        output.removeAll(keepingCapacity: true)
        try converter.process(input, into: &output)
        inputFrames += input.count / channels
        outputFrames += output.count / channels
    }

    /// Replaces `output` with the run's tail.
    public func finish(into output: inout [Float]) throws {
        output.removeAll(keepingCapacity: true)
        try converter.finish(into: &output)
        outputFrames += output.count / channels
    }
}
