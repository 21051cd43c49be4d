import CSampleRate

/// Streaming rate conversion through libsamplerate (the quality reference engine).
///
/// Lengths are frames per channel. The output buffer is reused by the caller; the converter
/// allocates nothing per block once `output` has grown to the block size.
public final class SampleRateConverter {
    /// libsamplerate's converters, by the names of apipe's presets.
    public enum Quality: String, Sendable, CaseIterable {
        case low, medium, high, best

        /// The libsamplerate converter each preset maps onto.
        var converter: Int32 {
            switch self {
            case .low: Int32(SRC_LINEAR)
            case .medium: Int32(SRC_SINC_FASTEST)
            case .high: Int32(SRC_SINC_MEDIUM_QUALITY)
            case .best: Int32(SRC_SINC_BEST_QUALITY)
            }
        }
    }

    /// libsamplerate's largest ratio between the two rates, either way.
    public static let maxRatio = 256

    private let state: OpaquePointer
    public let channels: Int
    public let ratio: Double
    private var data = SRC_DATA()

    public init(inputRate: Int, outputRate: Int, channels: Int, quality: Quality) throws(AudioError) {
        let ratio = Double(outputRate) / Double(inputRate)
        // Checked before the state exists: once every property is set, a throwing init still
        // runs deinit, and freeing the state here as well was a double free.
        guard src_is_valid_ratio(ratio) != 0 else {
            throw .converter("ratio \(outputRate)/\(inputRate) is outside libsamplerate's range (1/\(Self.maxRatio) to \(Self.maxRatio))")
        }
        var error: Int32 = 0
        guard let state = src_new(quality.converter, Int32(channels), &error) else {
            throw .converter(String(cString: src_strerror(error)))
        }
        self.state = state
        self.channels = channels
        self.ratio = ratio
    }

    deinit { src_delete(state) }

    /// Converts interleaved `input`, appending the converted frames to `output`.
    /// With `endOfInput`, the converter's tail is flushed as well.
    public func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool, into output: inout [Float]) throws(AudioError) {
        var inputFrames = input.count / channels
        var offset = 0
        repeat {
            let room = max(Int(Double(inputFrames) * ratio) + 64, 256)
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: room * channels))
            let (used, generated, status) = output.withUnsafeMutableBufferPointer { out in
                data.data_in = input.baseAddress.map { $0 + offset * channels }
                data.input_frames = inputFrames
                data.data_out = out.baseAddress! + start
                data.output_frames = room
                data.src_ratio = ratio
                data.end_of_input = endOfInput ? 1 : 0
                let status = src_process(state, &data)
                return (Int(data.input_frames_used), Int(data.output_frames_gen), status)
            }
            output.removeLast((room - generated) * channels)
            guard status == 0 else { throw .converter(String(cString: src_strerror(status))) }
            inputFrames -= used
            offset += used
            if generated == 0 && used == 0 { break }
        } while inputFrames > 0 || endOfInput
    }
}
