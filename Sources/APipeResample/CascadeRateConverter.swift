/// A rate change beyond one engine's reach (1:64 for apipe, 1:256 for libsamplerate), done as a
/// chain of converters through intermediate rates, each step within reach.
///
/// Each step keeps its own exact length, but rounding at an intermediate rate can leave the
/// chain a frame or so off round(total input x ratio); `finish` trims or pads the tail to the
/// exact count, so positions after the chain stay exact.
final class CascadeRateConverter: RateConverter {
    private let steps: [any RateConverter]
    private let channels: Int
    private let ratio: Double
    private var inputFrames = 0
    private var outputFrames = 0
    /// One buffer per step boundary, reused from block to block.
    private var buffers: [[Float]]

    init(steps: [any RateConverter], channels: Int, ratio: Double) {
        self.steps = steps
        self.channels = channels
        self.ratio = ratio
        buffers = Array(repeating: [], count: max(0, steps.count - 1))
    }

    /// The rates a conversion from `inputRate` to `outputRate` passes through, ends included,
    /// so that no step's ratio passes `maxRatio` either way.
    static func rates(from inputRate: Int, to outputRate: Int, maxRatio: Int) -> [Int] {
        var rates = [inputRate]
        var rate = inputRate
        while rate > outputRate * maxRatio {
            rate = (rate + maxRatio - 1) / maxRatio
            rates.append(rate)
        }
        while outputRate > rate * maxRatio {
            rate *= maxRatio
            rates.append(rate)
        }
        rates.append(outputRate)
        return rates
    }

    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws {
        let before = output.count
        try run(input, endOfInput: false, into: &output)
        inputFrames += input.count / channels
        outputFrames += (output.count - before) / channels
    }

    func finish(into output: inout [Float]) throws {
        let before = output.count
        try run(UnsafeBufferPointer(start: nil, count: 0), endOfInput: true, into: &output)
        let owed = max(0, Int((Double(inputFrames) * ratio).rounded()) - outputFrames)
        let produced = (output.count - before) / channels
        if produced > owed {
            output.removeLast((produced - owed) * channels)
        } else {
            output.append(contentsOf: repeatElement(0, count: (owed - produced) * channels))
        }
        outputFrames += owed
    }

    /// Passes `input` down the chain; at the end each step's tail goes through the steps after it.
    /// Buffers are swapped in and out, never copied, so nothing is allocated per block.
    private func run(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool, into output: inout [Float]) throws {
        var target: [Float] = []
        for (index, step) in steps.enumerated() {
            let last = index == steps.count - 1
            if last {
                swap(&target, &output)
            } else {
                swap(&target, &buffers[index])
                target.removeAll(keepingCapacity: true)
            }
            if index == 0 {
                if !input.isEmpty { try step.process(input, into: &target) }
            } else if !buffers[index - 1].isEmpty {
                try buffers[index - 1].withUnsafeBufferPointer { try step.process($0, into: &target) }
            }
            if endOfInput { try step.finish(into: &target) }
            if last { swap(&target, &output) } else { swap(&target, &buffers[index]) }
        }
    }
}
