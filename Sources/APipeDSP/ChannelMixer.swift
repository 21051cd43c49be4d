/// Changes the channel count of interleaved frames.
///
/// The mix rules: to mono, the mean of all channels (so a full-scale signal in every channel
/// stays full-scale, and nothing clips); from mono, the one channel copied to every output
/// channel; otherwise output channel i takes input channel i, wrapping around when there are
/// fewer inputs (stereo to 4 ch gives L R L R) and dropping the extra inputs when there are more.
public struct ChannelMixer: Sendable {
    public let inputChannels: Int
    public let outputChannels: Int

    public init(inputChannels: Int, outputChannels: Int) {
        precondition(inputChannels > 0 && outputChannels > 0, "channel counts must be positive")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
    }

    /// Whether mixing changes anything.
    public var isIdentity: Bool { inputChannels == outputChannels }

    /// Replaces `output` with the mixed frames of `input` (which holds whole frames).
    public func mix(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        let frames = input.count / inputChannels
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: repeatElement(0, count: frames * outputChannels))
        output.withUnsafeMutableBufferPointer { out in
            if outputChannels == 1 {
                let scale = 1 / Float(inputChannels)
                for frame in 0..<frames {
                    var sum: Float = 0
                    for channel in 0..<inputChannels { sum += input[frame * inputChannels + channel] }
                    out[frame] = sum * scale
                }
            } else {
                for frame in 0..<frames {
                    for channel in 0..<outputChannels {
                        out[frame * outputChannels + channel] = input[frame * inputChannels + channel % inputChannels]
                    }
                }
            }
        }
    }
}
