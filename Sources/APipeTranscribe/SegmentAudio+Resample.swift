import CSampleRate

extension SegmentAudio {
    /// The audio at `rate`, converted with libsamplerate's medium-quality sinc converter.
    ///
    /// The one place engines change rate, so the DSP core's resampler can replace it later.
    public func resampled(to newRate: Int) -> SegmentAudio {
        guard newRate != rate, !samples.isEmpty else { return SegmentAudio(samples: samples, rate: newRate) }
        let ratio = Double(newRate) / Double(rate)
        let capacity = Int((Double(samples.count) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        var produced = 0
        samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA()
                data.data_in = input.baseAddress
                data.input_frames = input.count
                data.data_out = out.baseAddress
                data.output_frames = out.count
                data.src_ratio = ratio
                if src_simple(&data, Int32(SRC_SINC_MEDIUM_QUALITY), 1) == 0 {
                    produced = data.output_frames_gen
                }
            }
        }
        output.removeSubrange(produced...)
        return SegmentAudio(samples: output, rate: newRate)
    }

    /// The audio as a 16-bit mono WAV file in memory.
    public func wav() -> [UInt8] {
        var bytes: [UInt8] = []
        let dataSize = samples.count * 2
        bytes.reserveCapacity(44 + dataSize)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { bytes.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { bytes.append(contentsOf: $0) } }
        bytes.append(contentsOf: Array("RIFF".utf8))
        u32(36 + dataSize)
        bytes.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(1)
        u32(rate)
        u32(rate * 2)
        u16(2)
        u16(16)
        bytes.append(contentsOf: Array("data".utf8))
        u32(dataSize)
        bytes.append(contentsOf: repeatElement(0, count: dataSize))
        bytes.withUnsafeMutableBytes { raw in
            for (i, x) in samples.enumerated() {
                raw.storeBytes(of: SampleCodec.clippedInt16(x).littleEndian, toByteOffset: 44 + i * 2, as: Int16.self)
            }
        }
        return bytes
    }

    /// Bytes of `wav()` for `seconds` of audio at `rate`.
    static func wavSize(seconds: Double, rate: Int) -> Int { 44 + Int((seconds * Double(rate)).rounded(.up)) * 2 }
}

import APipeStream
