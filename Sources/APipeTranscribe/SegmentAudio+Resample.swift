import APipeCat
import APipeDSP
import APipeStream

extension SegmentAudio {
    /// The audio at `newRate`, converted by the DSP core's resampler (high preset; the length
    /// is exactly round(count x ratio)). The one place engines change rate.
    public func resampled(to newRate: Int) -> SegmentAudio {
        guard newRate != rate, !samples.isEmpty else { return SegmentAudio(samples: samples, rate: newRate) }
        var output: [Float] = []
        output.reserveCapacity(Int(Double(samples.count) * Double(newRate) / Double(rate)) + 64)
        do {
            var resampler = try Resampler(inputRate: rate, outputRate: newRate, channels: 1, quality: .high)
            samples.withUnsafeBufferPointer { _ = resampler.process($0, into: &output) }
            _ = resampler.finish(into: &output)
        } catch {
            // Only a ratio beyond the resampler's 64:1 fails, and engine rates never ask for one;
            // keep the length right.
            return SegmentAudio(samples: [Float](repeating: 0, count: Int(duration * Double(newRate))), rate: newRate)
        }
        return SegmentAudio(samples: output, rate: newRate)
    }

    /// The audio as a 16-bit mono WAV file in memory (empty for a rate no stream can carry).
    public func wav() -> [UInt8] {
        guard let format = try? AudioFormat(encoding: .s16le, rate: rate, channels: 1) else { return [] }
        var bytes = WAVHeader.bytes(format: format, dataBytes: samples.count * 2)
        bytes.reserveCapacity(WAVHeader.size + samples.count * 2)
        samples.withUnsafeBufferPointer { SampleCodec.encode($0, encoding: .s16le, appendingTo: &bytes) }
        return bytes
    }
}
