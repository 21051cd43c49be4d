import APipeDSP
import APipeStream

/// The `aresample` stage: rate, channel and sample-encoding conversion.
///
/// Positions stay exact: a contiguous run of input starting at position p comes out starting
/// at round(p x ratio). A gap in the input positions (dropped silence) or a new format ends the
/// run: the converter is drained and a new one starts at the new position. Events are held
/// back until the audio that came before them has left the converter, so that every event
/// keeps its place in the stream relative to the audio.
public struct ResampleStage: StreamStage {
    private let options: ResampleOptions
    private var input: AudioFormat?
    private var output: AudioFormat?
    private var mixer: ChannelMixer?
    private var converter: (any RateConverter)?
    /// Input position where the current run started, and the next one expected.
    private var runStart = 0
    private var nextInput = 0
    /// Output frames written in the current run.
    private var runOutputFrames = 0
    /// Events waiting for the output to catch up: (input frames into the run, event).
    private var heldEvents: [(inputFrames: Int, event: Event)] = []
    private var samples: [Float] = []
    private var mixed: [Float] = []
    private var converted: [Float] = []
    private var encoded: [UInt8] = []

    public init(options: ResampleOptions) {
        self.options = options
    }

    public mutating func consume(_ packet: Packet, output writer: StreamWriter) throws {
        switch packet {
        case .format(let format):
            try drain(writer)
            try start(format, writer)
        case .audio(let block):
            if block.position != nextInput || converter == nil {
                try drain(writer)
                runStart = block.position
                nextInput = block.position
                try startConverter()
            }
            try convert(block, writer)
        case .event(let event):
            if converter == nil || heldEvents.isEmpty && runOutputFrames >= expectedOutput(nextInput - runStart) {
                try writer.write(event)
            } else {
                heldEvents.append((nextInput - runStart, event))
            }
        }
    }

    public mutating func finish(output writer: StreamWriter, interrupted: Bool) throws {
        try drain(writer)
    }

    private mutating func start(_ format: AudioFormat, _ writer: StreamWriter) throws {
        let out = try options.outputFormat(for: format)
        input = format
        output = out
        mixer = ChannelMixer(inputChannels: format.channels, outputChannels: out.channels)
        try writer.write(format: out)
    }

    private var ratio: Double {
        guard let input, let output else { return 1 }
        return Double(output.rate) / Double(input.rate)
    }

    private func expectedOutput(_ inputFrames: Int) -> Int {
        Int((Double(inputFrames) * ratio).rounded())
    }

    private mutating func startConverter() throws {
        guard let input, let output else { return }
        runOutputFrames = 0
        converter = input.rate == output.rate
            ? nil
            : try RateConverterFactory.make(inputRate: input.rate, outputRate: output.rate, channels: output.channels, quality: options.quality)
    }

    private mutating func convert(_ block: AudioBlock, _ writer: StreamWriter) throws {
        guard let output, let mixer else { return }
        if converter == nil && mixer.isIdentity && output.encoding == block.format.encoding {
            try writer.write(AudioBlock(position: block.position, format: output, bytes: block.bytes))
            nextInput += block.frames
            return
        }
        samples.removeAll(keepingCapacity: true)
        block.appendSamples(to: &samples)
        if !mixer.isIdentity {
            samples.withUnsafeBufferPointer { mixer.mix($0, into: &mixed) }
            swap(&samples, &mixed)
        }
        nextInput += block.frames
        if let converter {
            converted.removeAll(keepingCapacity: true)
            try samples.withUnsafeBufferPointer { try converter.convert($0, endOfInput: false, into: &converted) }
            try emit(converted, writer)
        } else {
            try emit(samples, writer)
        }
    }

    /// Writes converted frames at their true position, then any events they have caught up with.
    private mutating func emit(_ frames: [Float], _ writer: StreamWriter) throws {
        guard let output else { return }
        let count = frames.count / output.channels
        if count > 0 {
            let position = expectedOutput(runStart) + runOutputFrames
            try frames.withUnsafeBufferPointer { try writer.writeAudio(position: position, samples: $0, scratch: &encoded) }
            runOutputFrames += count
        }
        var released = 0
        while released < heldEvents.count, runOutputFrames >= expectedOutput(heldEvents[released].inputFrames) {
            try writer.write(heldEvents[released].event)
            released += 1
        }
        heldEvents.removeFirst(released)
    }

    /// Ends the current run: flushes the converter's tail and every held event.
    private mutating func drain(_ writer: StreamWriter) throws {
        if let converter, let input, let output {
            // The converter's tail is the filter ringing into silence: feed silence past the
            // filter's reach, then keep exactly round(run length x ratio) frames in all.
            let silence = [Float](repeating: 0, count: max(4096, input.rate / 10) * output.channels)
            converted.removeAll(keepingCapacity: true)
            try silence.withUnsafeBufferPointer { try converter.convert($0, endOfInput: true, into: &converted) }
            let missing = max(0, expectedOutput(nextInput - runStart) - runOutputFrames)
            converted.removeLast(max(0, converted.count - missing * output.channels))
            try emit(converted, writer)
            self.converter = nil
        }
        for held in heldEvents { try writer.write(held.event) }
        heldEvents.removeAll()
    }
}
