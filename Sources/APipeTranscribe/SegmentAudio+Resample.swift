import APipeAudio
import APipeCat
import APipeStream

extension SegmentAudio {
    /// The audio at `rate`, converted by libsamplerate (medium-quality sinc).
    ///
    /// The one place engines change rate, so the DSP core's resampler can replace it later.
    public func resampled(to newRate: Int) -> SegmentAudio {
        guard newRate != rate, !samples.isEmpty else { return SegmentAudio(samples: samples, rate: newRate) }
        var output: [Float] = []
        output.reserveCapacity(Int(Double(samples.count) * Double(newRate) / Double(rate)) + 64)
        do {
            let converter = try SampleRateConverter(inputRate: rate, outputRate: newRate, channels: 1, quality: .high)
            try samples.withUnsafeBufferPointer { input throws(AudioError) in try converter.process(input, endOfInput: true, into: &output) }
        } catch {
            // Only a ratio beyond 256:1 fails, and stream rates cannot reach one; keep the length right.
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
